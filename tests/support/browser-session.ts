import { gunzipSync } from "node:zlib";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { textOf } from "./shopper.ts";

/**
 * A shopper's browser for app.inject: keeps the cookies the shop sets (cart, shopper,
 * CSRF secret, flash) and sends them back, and reads the form token off pages. Like every
 * current browser it says that its requests come from the shop's own pages (Sec-Fetch-Site).
 */
export class BrowserSession {
  private cookies = new Map<string, string>();
  token = "";

  /**
   * `ip`: the address the browser's requests come from (app.inject's own, 127.0.0.1, without it);
   * `headers` go with every request, such as a Host header the browser was sent to;
   * `fetchMetadata: false` is a browser too old to say where its requests come from (or one
   * behind a proxy that strips it): its forms need their token.
   */
  constructor(
    private readonly app: FastifyInstance,
    private readonly options: { ip?: string; headers?: Record<string, string>; fetchMetadata?: boolean } = {},
  ) {}

  /** What a current browser says of a request from the shop's own pages. */
  private provenance(): Record<string, string> {
    return this.options.fetchMetadata === false ? {} : { "sec-fetch-site": "same-origin" };
  }

  /** Takes another browser's cookies and token, as one browser talking to another instance of the shop. */
  adopt(other: BrowserSession): void {
    this.cookies = new Map(other.cookies);
    this.token = other.token;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private remember(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of res.cookies) {
      if (c.maxAge === 0 || c.value === "") this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
    if (token) this.token = token;
    return res;
  }

  async get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.remember(
      await this.app.inject({
        url,
        ...(this.options.ip ? { remoteAddress: this.options.ip } : {}),
        headers: { ...this.options.headers, cookie: this.cookieHeader(), ...this.provenance(), ...headers },
      }),
    );
  }

  async post(
    url: string,
    body: { payload: Buffer | string; contentType: string },
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return this.remember(
      await this.app.inject({
        method: "POST",
        url,
        ...(this.options.ip ? { remoteAddress: this.options.ip } : {}),
        payload: body.payload,
        headers: {
          ...this.options.headers,
          cookie: this.cookieHeader(),
          "content-type": body.contentType,
          ...this.provenance(),
          ...headers,
        },
      }),
    );
  }

  /** A urlencoded form post with the page's CSRF token. */
  form(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.post(
      url,
      {
        payload: new URLSearchParams({ _csrf: this.token, ...fields }).toString(),
        contentType: "application/x-www-form-urlencoded",
      },
      headers,
    );
  }

  /** Follows a redirect as a browser would. */
  follow(res: LightMyRequestResponse) {
    const location = res.headers.location;
    if (typeof location !== "string") throw new Error(`no redirect: ${res.statusCode}`);
    return this.get(location);
  }
}

/** A page as a browser asks for it (gzip, so a kept answer may be sent, ready-answers.ts), read. */
export async function lookAsBrowser(browser: BrowserSession, url: string) {
  const res = await browser.get(url, { "accept-encoding": "gzip" });
  const html =
    res.headers["content-encoding"] === "gzip" ? gunzipSync(res.rawPayload).toString("utf8") : res.body;
  return { status: res.statusCode, bytes: res.rawPayload, html, text: textOf(html) };
}
