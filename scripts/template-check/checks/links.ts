import { inTemplateError, type PageView, rawValue, value } from "../dom.ts";
import type { Finding } from "../report.ts";
import { type CheckShop, probeHeader } from "../shop.ts";

/** The path of a site-relative address, without query and fragment; undefined for anything else. */
export function sitePath(address: string): string | undefined {
  if (!address.startsWith("/") || address.startsWith("//")) return undefined;
  const path = address.split(/[?#]/)[0] ?? "";
  if (path.startsWith("/static/")) return undefined;
  return path;
}

type Verdict = "ok" | "no route" | { onlyGet: true };

/**
 * Whether the shop answers a method on a path, asked once per method and path. A link is
 * followed with its query (an order's page opens by the secret in it) and with the cookies
 * of the page it is on, so a shopper's own pages count, and is broken when it answers 404.
 * Links are followed after the whole journey: a guest whose photos became an account's since
 * reaches them only through its session (ADR 0089), so a link that the page's own cookies no
 * longer open is followed again with the journey's last ones (`laterCookie`). A form's post is
 * only routed (see probeHeader): nothing is sent to a handler, so checking changes nothing; a
 * path that takes only GET is a 405.
 */
export class RouteProbe {
  private readonly answers = new Map<string, Promise<Verdict>>();
  /** The cookies the journey's shopper ended with; none before the journey ran. */
  laterCookie = "";

  constructor(private readonly shop: CheckShop) {}

  verdict(method: string, path: string, cookie: string, address = path): Promise<Verdict> {
    const key = `${method} ${path}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.ask(method, path, cookie, address);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async ask(method: string, path: string, cookie: string, address: string): Promise<Verdict> {
    const { app } = this.shop;
    if (method === "GET") {
      const follow = async (as: string) => {
        const res = await app.inject({ method: "GET", url: address, headers: as ? { cookie: as } : {} });
        return res.statusCode === 404 || res.statusCode === 405 ? "no route" : "ok";
      };
      const first = await follow(cookie);
      return first === "ok" || !this.laterCookie || this.laterCookie === cookie
        ? first
        : follow(this.laterCookie);
    }
    const probe = (m: string) =>
      app
        .inject({ method: m as "POST", url: path, headers: { [probeHeader]: "1" } })
        .then((r) => r.statusCode);
    if ((await probe(method)) !== 404) return "ok";
    return (await probe("GET")) !== 404 ? { onlyGet: true } : "no route";
  }
}

/** Internal links (a[href]) and form targets (form[action] with its method) that lead nowhere. */
export async function links(view: PageView, probe: RouteProbe): Promise<Finding[]> {
  const findings: Finding[] = [];
  const targets: Array<{ method: string; path: string; address: string; texts: string[]; what: string }> = [];
  const written = (name: string, raw: string) => [`${name}="${raw}"`, `"${raw}"`];
  for (const a of view.document.querySelectorAll("a[href]")) {
    if (inTemplateError(a)) continue;
    const href = value(a, "href") ?? "";
    const path = sitePath(href);
    if (path) {
      const address = href.split("#")[0] ?? path;
      targets.push({
        method: "GET",
        path,
        address,
        texts: written("href", rawValue(a, "href") ?? ""),
        what: "link",
      });
    }
  }
  for (const form of view.document.querySelectorAll("form[action]")) {
    if (inTemplateError(form)) continue;
    const path = sitePath(value(form, "action") ?? "");
    const method = (value(form, "method") ?? "get").toUpperCase() === "POST" ? "POST" : "GET";
    const texts = written("action", rawValue(form, "action") ?? "");
    if (path) targets.push({ method, path, address: path, texts, what: `form (${method})` });
  }
  for (const target of targets) {
    const verdict = await probe.verdict(target.method, target.path, view.page.cookie, target.address);
    if (verdict === "ok") continue;
    findings.push({
      message:
        verdict === "no route"
          ? `${target.what} to ${target.path} matches no route (404)`
          : `${target.what} to ${target.path}: that address only answers GET (405)`,
      texts: target.texts,
    });
  }
  return findings;
}
