// One shopper's browser: its own cookies and the form token of the last page, each request
// sent to the next live instance in turn, so a session keeps crossing between instances.
import type { Instance } from "./instances.ts";
import type { Tally } from "./tally.ts";

export interface Page {
  status: number;
  location: string;
  body: string;
  instance: string;
}

/** The request went to the instance that was killed, and died with it. */
export class Lost extends Error {}
/** The shop answered 429: a limit, not a failure. */
export class Limited extends Error {}
/** Anything a journey did not expect; the message says what. */
export class Unexpected extends Error {}
/** A live instance did not answer (counted by the tally as a connection failure). */
export class NoAnswer extends Error {}

/** Gives the instances taking traffic now. */
export type LiveInstances = () => readonly Instance[];

const requestTimeoutMs = 30_000;

export class Browser {
  private readonly cookies = new Map<string, string>();
  private turn = 0;
  token = "";

  constructor(
    private readonly live: LiveInstances,
    private readonly tally: Tally,
  ) {}

  get(path: string): Promise<Page> {
    return this.send("GET", path);
  }

  /** A urlencoded form post with the page's token, as the form without JavaScript sends it. */
  form(path: string, fields: Record<string, string>, options: { ajax?: boolean } = {}): Promise<Page> {
    return this.send("POST", path, new URLSearchParams({ _csrf: this.token, ...fields }), {
      ...(options.ajax ? { "x-requested-with": "XMLHttpRequest" } : {}),
    });
  }

  /** A multipart post (photos); fetch writes the boundary. */
  multipart(path: string, body: FormData, headers: Record<string, string> = {}): Promise<Page> {
    return this.send("POST", path, body, headers);
  }

  private async send(
    method: string,
    path: string,
    body?: URLSearchParams | FormData,
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const instances = this.live();
    const instance = instances[this.turn++ % instances.length] as Instance;
    this.tally.sent(instance.name);
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${instance.url}${path}`, {
        method,
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(requestTimeoutMs),
        headers: {
          cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
          // As every current browser says of a page's own requests.
          "sec-fetch-site": "same-origin",
          ...headers,
        },
      });
      text = await res.text();
    } catch (err) {
      if (instance.killedAt !== undefined) {
        this.tally.lost++;
        throw new Lost(`${method} ${path}`);
      }
      const reason = err instanceof Error ? `${err.message} ${String(err.cause ?? "")}`.trim() : String(err);
      this.tally.connectionFailed(`${instance.name} ${method} ${path}: ${reason}`);
      throw new NoAnswer(`${instance.name} ${method} ${path}`);
    }
    this.tally.answered(instance.name, method, path, res.status);
    this.remember(res.headers.getSetCookie());
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.token = token;
    if (res.status === 429) throw new Limited(`${method} ${path}`);
    return {
      status: res.status,
      location: res.headers.get("location") ?? "",
      body: text,
      instance: instance.name,
    };
  }

  /** Keeps each cookie by name (paths aside); an expired or emptied one is dropped. */
  private remember(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      if (at < 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
