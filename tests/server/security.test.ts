import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({
    beforeReady(app) {
      // A state-changing form as later screens will have it, to test the shared protections.
      app.route({
        method: ["POST", "PUT", "PATCH", "DELETE"],
        url: "/test/form",
        handler: async (request) => ({ method: request.method, body: request.body }),
      });
      app.get("/test/form", async (_request, reply) => ({ token: reply.generateCsrf() }));
    },
  });
});
afterAll(() => shop.close());

/** What a shopper's browser holds after loading a page with a form: cookies plus the hidden token. */
async function formSession() {
  const res = await shop.app.inject({ url: "/test/form" });
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  return { cookie, token: (res.json() as { token: string }).token };
}

const post = (payload: string, headers: Record<string, string>) =>
  shop.app.inject({
    method: "POST",
    url: "/test/form",
    payload,
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });

describe("the Content-Security-Policy", () => {
  it("allows scripts only from the shop itself, never inline", async () => {
    const res = await shop.app.inject({ url: "/" });
    const csp = String(res.headers["content-security-policy"]);
    const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src"));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("lets images come from the configured image host", async () => {
    const withHost = await testShop({ env: { IMAGE_HOST: "https://img.fotohoek.nl" } });
    try {
      const res = await withHost.app.inject({ url: "/" });
      expect(res.headers["content-security-policy"]).toContain(
        "img-src 'self' data: https://img.fotohoek.nl",
      );
    } finally {
      await withHost.close();
    }
  });

  it("comes with the other protective headers", async () => {
    const res = await shop.app.inject({ url: "/" });
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["x-powered-by"]).toBeUndefined();
  });

  it("is sent with the 404 and error pages too", async () => {
    const page = await shop.app.inject({ url: "/" });
    const missing = await shop.app.inject({ url: "/bestaat-niet" });
    expect(missing.statusCode).toBe(404);
    for (const name of ["content-security-policy", "x-frame-options", "cross-origin-opener-policy"]) {
      expect(missing.headers[name]).toBe(page.headers[name]);
    }
  });
});

describe("CSRF protection of forms", () => {
  it("accepts a post the browser marks as the shop's own, by Fetch Metadata or Origin, without a token", async () => {
    const { cookie } = await formSession();
    expect((await post("name=Anna", { cookie, "sec-fetch-site": "same-origin" })).statusCode).toBe(200);
    expect((await post("name=Anna", { cookie, origin: "http://localhost:80" })).statusCode).toBe(200);
  });

  it("when a post says nothing of where it comes from and the token is missing, refuses with a localized 403 page", async () => {
    const { cookie } = await formSession();
    const res = await post("name=Anna", { cookie });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain("Deze pagina is verlopen");
  });

  it("when such a post's token is wrong or from another session, refuses", async () => {
    const mine = await formSession();
    const theirs = await formSession();
    expect((await post(`name=Anna&_csrf=nonsense`, { cookie: mine.cookie })).statusCode).toBe(403);
    expect((await post(`name=Anna&_csrf=${theirs.token}`, { cookie: mine.cookie })).statusCode).toBe(403);
    expect((await post(`name=Anna&_csrf=${mine.token}`, {})).statusCode).toBe(403);
  });

  it("accepts such a post with the token from its hidden field", async () => {
    const { cookie, token } = await formSession();
    const res = await post(`name=Anna&_csrf=${encodeURIComponent(token)}`, { cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ method: "POST", body: { name: "Anna" } });
  });

  it("answers a German visitor in German", async () => {
    const res = await post("name=Anna", { "accept-language": "de" });
    expect(res.body).toContain("Diese Seite ist abgelaufen");
  });
});

describe("the token in a page's forms", () => {
  const productPage = "/assortiment/fotoboeken/exclusief-fotoboek";
  const tokenIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

  it("for a visitor without cookies is the shop's shared token, with no cookie set, so every such visitor gets the same answer", async () => {
    const first = await shop.app.inject({ url: productPage });
    const second = await shop.app.inject({ url: productPage });
    expect(first.headers["set-cookie"]).toBeUndefined();
    expect(tokenIn(first.body)).toMatch(/^shared\./);
    expect(second.body).toBe(first.body);
  });

  it("is accepted from that visitor's first post, even from a client that says nothing of its origin", async () => {
    const token = tokenIn((await shop.app.inject({ url: productPage })).body);
    const res = await post(`name=Anna&_csrf=${encodeURIComponent(token)}`, {});
    expect(res.statusCode).toBe(200);
  });

  it("for a shopper whose browser says where its requests come from is the shared one too, and no secret cookie is set", async () => {
    const { cookie } = await formSession();
    const modern = { cookie, "sec-fetch-site": "same-origin" };
    const first = await shop.app.inject({ url: productPage, headers: modern });
    expect(tokenIn(first.body)).toMatch(/^shared\./);
    expect(first.headers["set-cookie"]).toBeUndefined();
    // Another shopper with the same count in the header gets the same bytes.
    const other = await formSession();
    const second = await shop.app.inject({ url: productPage, headers: { ...modern, cookie: other.cookie } });
    expect(second.body).toBe(first.body);
  });

  it("for a shopper whose browser says nothing is a token of their own, which nobody else's page carries", async () => {
    const anna = await formSession();
    const ben = await formSession();
    const annas = tokenIn(
      (await shop.app.inject({ url: productPage, headers: { cookie: anna.cookie } })).body,
    );
    const bens = tokenIn((await shop.app.inject({ url: productPage, headers: { cookie: ben.cookie } })).body);
    expect(annas).not.toMatch(/^shared\./);
    expect(annas).not.toBe("");
    expect(bens).not.toBe(annas);
    expect((await post(`_csrf=${encodeURIComponent(annas)}`, { cookie: anna.cookie })).statusCode).toBe(200);
  });

  it("when a shopper with cookies posts the shared token without saying where from, refuses it", async () => {
    const { cookie } = await formSession();
    const shared = encodeURIComponent(tokenIn((await shop.app.inject({ url: productPage })).body));
    // A cookie-holding post could otherwise be forged with a token anyone can fetch.
    const unknown = await post(`_csrf=${shared}`, { cookie });
    expect(unknown.statusCode).toBe(403);
    expect(unknown.body).toContain("Deze pagina is verlopen");
  });
});

describe("a post that a browser marks as coming from another site", () => {
  it("is refused, even with the shopper's own valid token", async () => {
    const { cookie, token } = await formSession();
    const body = `name=Anna&_csrf=${encodeURIComponent(token)}`;
    const elsewhere: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://fotohoek.example.com" },
      { origin: "null" },
    ];
    for (const headers of elsewhere) {
      const res = await post(body, { cookie, ...headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
    }
    expect((await post(body, { cookie, "sec-fetch-site": "same-origin" })).statusCode).toBe(200);
  });

  it("behind a proxy that rewrites the host, counts the shop's public address as its own", async () => {
    const proxied = await testShop({
      env: { PUBLIC_URL: "https://www.fotohoek.example", PAYMENT_PROVIDER: "test" },
      beforeReady(app) {
        app.post("/test/form", async () => ({ ok: true }));
        app.get("/test/form", async (_request, reply) => ({ token: reply.generateCsrf() }));
      },
    });
    try {
      const res = await proxied.app.inject({ url: "/test/form" });
      const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      const body = `_csrf=${encodeURIComponent((res.json() as { token: string }).token)}`;
      const from = (origin: string) =>
        proxied.app.inject({
          method: "POST",
          url: "/test/form",
          payload: body,
          headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin },
        });
      expect((await from("https://www.fotohoek.example")).statusCode).toBe(200);
      expect((await from("https://elsewhere.example")).statusCode).toBe(403);
    } finally {
      await proxied.close();
    }
  });
});

describe("X-HTTP-Method-Override", () => {
  it("turns a POST into PUT, PATCH or DELETE", async () => {
    const { cookie, token } = await formSession();
    for (const method of ["PUT", "patch", "DELETE"]) {
      const res = await post(`_csrf=${encodeURIComponent(token)}`, {
        cookie,
        "x-http-method-override": method,
      });
      expect(res.json()).toMatchObject({ method: method.toUpperCase() });
    }
  });

  it("is ignored for other methods and on anything but POST", async () => {
    const { cookie, token } = await formSession();
    const asGet = await post(`_csrf=${encodeURIComponent(token)}`, {
      cookie,
      "x-http-method-override": "GET",
    });
    expect(asGet.json()).toMatchObject({ method: "POST" });
    const fromGet = await shop.app.inject({
      method: "GET",
      url: "/test/form",
      headers: { "x-http-method-override": "DELETE" },
    });
    expect(fromGet.json()).toHaveProperty("token");
  });
});

describe("request bodies", () => {
  it("when a body is larger than 1 MiB, answers 413 with a page, not a crash", async () => {
    const { cookie, token } = await formSession();
    const res = await post(`_csrf=${token}&text=${"a".repeat(1024 * 1024 + 10)}`, { cookie });
    expect(res.statusCode).toBe(413);
    expect(res.body).toContain("Te veel gegevens verstuurd");
  });

  it("when a body is in a format the shop does not read, answers 415", async () => {
    const res = await shop.app.inject({
      method: "POST",
      url: "/test/form",
      payload: "<xml/>",
      headers: { "content-type": "application/xml" },
    });
    expect(res.statusCode).toBe(415);
  });
});

describe("cookies the shop sets", () => {
  it("are signed, HttpOnly and SameSite=Lax", async () => {
    const res = await shop.app.inject({ url: "/test/form" });
    const csrf = res.cookies.find((c) => c.name === "_csrf");
    expect(csrf).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(shop.app.unsignCookie(csrf?.value ?? "").valid).toBe(true);
  });

  it("are Secure behind HTTPS when the proxy is trusted", async () => {
    const proxied = await testShop({
      env: { TRUST_PROXY: "1" },
      beforeReady: (app) => app.get("/test/cookie", async (_req, reply) => ({ token: reply.generateCsrf() })),
    });
    try {
      const res = await proxied.app.inject({
        url: "/test/cookie",
        headers: { "x-forwarded-proto": "https" },
      });
      expect(res.cookies.find((c) => c.name === "_csrf")?.secure).toBe(true);
    } finally {
      await proxied.close();
    }
  });
});

describe("static files", () => {
  it("cache hashed build files for a year, other files for an hour", async () => {
    const page = await shop.app.inject({ url: "/" });
    const css = /href="(\/static\/build\/site-[A-Z0-9]+\.css)"/.exec(page.body)?.[1];
    expect(css).toBeDefined();
    const built = await shop.app.inject({ url: css ?? "" });
    expect(built.statusCode).toBe(200);
    expect(built.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const logo = await shop.app.inject({ url: "/static/images/logo.svg" });
    expect(logo.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("are compressed when large enough and the browser accepts it", async () => {
    const res = await shop.app.inject({ url: "/", headers: { "accept-encoding": "gzip" } });
    expect(res.headers["content-encoding"]).toBe("gzip");
  });
});
