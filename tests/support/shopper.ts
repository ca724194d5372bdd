import type { FastifyInstance, LightMyRequestResponse } from "fastify";

/**
 * A shopper's browser for app.inject: keeps the cookies the shop sets and the form token
 * of the last page, and asks for pages and posts forms as a current browser does (or as the
 * ajax behaviour does), saying that they come from the shop's own pages (Sec-Fetch-Site).
 */
export interface Shopper {
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(
    url: string,
    fields: Record<string, string>,
    options?: { ajax?: boolean },
  ): Promise<LightMyRequestResponse>;
  /** The cookie header this browser sends. */
  cookie(): string;
  cookies: Map<string, string>;
  token: string;
}

/** Starts on a page with a form (the product page by default), so the browser has a form token. */
export async function shopper(
  app: FastifyInstance,
  firstPage = "/assortiment/fotoboeken/exclusief-fotoboek",
): Promise<Shopper> {
  const cookies = new Map<string, string>();
  const remember = (res: LightMyRequestResponse) => {
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
      if (c.maxAge === 0 || c.value === "") cookies.delete(c.name);
      else cookies.set(c.name, c.value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.payload)?.[1];
    if (token) self.token = token;
    return res;
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const self: Shopper = {
    cookies,
    token: "",
    cookie,
    get: async (url, headers = {}) =>
      remember(
        await app.inject({
          method: "GET",
          url,
          headers: { host: "shop.test", cookie: cookie(), "sec-fetch-site": "same-origin", ...headers },
        }),
      ),
    post: async (url, fields, options = {}) =>
      remember(
        await app.inject({
          method: "POST",
          url,
          headers: {
            host: "shop.test",
            cookie: cookie(),
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "same-origin",
            ...(options.ajax ? { "x-requested-with": "XMLHttpRequest" } : {}),
          },
          payload: new URLSearchParams({ _csrf: self.token, ...fields }).toString(),
        }),
      ),
  };
  await self.get(firstPage);
  return self;
}

/** The visible text of an HTML fragment, whitespace collapsed: what a shopper reads. */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;|\u00a0|\u202f/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}
