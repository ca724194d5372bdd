import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartRepository } from "../../server/store/cart-repository.ts";
import { signed, type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: "GET", url, headers: { host: "shop.test", ...headers } });

function attr(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((m) => m[1] ?? "");
}

describe("the home page", () => {
  it("presents the range in Dutch at /", async () => {
    const res = await get("/");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.body).toMatch(/<html lang="nl"/);
    expect(res.body).toContain("Exclusief fotoboek");
    expect(res.body).toContain("+ Gratis verzending");
    expect(res.body).toMatch(/vanaf €\s49,99/);
  });

  it("presents the range in German at /de", async () => {
    const res = await get("/de");
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<html lang="de"/);
    expect(res.body).toContain("Exklusives Fotobuch");
    expect(res.body).toContain("+ Kostenloser Versand");
    expect(res.body).toMatch(/ab 49,99\s€/);
    expect(res.body).not.toContain("Gratis verzending");
  });

  it("has a canonical link and reciprocal hreflang alternates", async () => {
    const nl = (await get("/")).body;
    const de = (await get("/de")).body;
    expect(attr(nl, /rel="canonical" href="([^"]+)"/g)).toEqual(["http://localhost:3000/"]);
    expect(attr(de, /rel="canonical" href="([^"]+)"/g)).toEqual(["http://localhost:3000/de"]);
    for (const html of [nl, de]) {
      expect(attr(html, /hreflang="(\w+(?:-\w+)?)" href="[^"]+">/g)).toEqual(["nl", "de", "x-default"]);
      expect(html).toContain('<link rel="alternate" hreflang="nl" href="http://localhost:3000/">');
      expect(html).toContain('<link rel="alternate" hreflang="de" href="http://localhost:3000/de">');
    }
  });

  it("uses PUBLIC_URL for absolute links when it is configured, not the Host header", async () => {
    const configured = await testShop({
      env: { PUBLIC_URL: "https://www.fotohoek.nl", PAYMENT_PROVIDER: "test" },
    });
    try {
      const res = await configured.app.inject({ url: "/de", headers: { host: "evil.example" } });
      expect(res.body).toContain('rel="canonical" href="https://www.fotohoek.nl/de"');
      expect(res.body).not.toContain("evil.example");
    } finally {
      await configured.close();
    }
  });

  it("has a language switcher that leads to the same page in the other language", async () => {
    const nl = (await get("/")).body;
    // Each switch is counted (locale.switch), from this page's language to the other.
    expect(nl).toMatch(
      /<a href="\/de" hreflang="de" lang="de" data-analytics="locale.switch" data-analytics-from="nl" data-analytics-to="de">Deutsch<\/a>/,
    );
    const cart = (await get("/einkaufswagen/inhalt")).body;
    expect(cart).toMatch(/<a href="\/winkelwagen\/inhoud" hreflang="nl" lang="nl"[^>]*>Nederlands<\/a>/);
  });

  it("has a skip link, main navigation, a cart link with its count and a customer-service footer", async () => {
    const html = (await get("/")).body;
    expect(html).toMatch(/<a class="skip-link" href="#main">Direct naar de inhoud<\/a>/);
    expect(html).toMatch(/<main id="main"/);
    expect(html).toMatch(/<nav class="site-nav" aria-label="Hoofdmenu">/);
    expect(html).toMatch(/href="\/winkelwagen\/inhoud"[^>]*>[\s\S]*0 artikelen/);
    expect(html).toMatch(/<h2 id="footer-service">Klantenservice<\/h2>/);
  });

  it("only links to pages that exist", async () => {
    for (const page of ["/", "/de", "/winkelwagen/inhoud", "/einkaufswagen/inhalt"]) {
      const html = (await get(page)).body;
      const links = attr(html, /href="(\/[^"#]*)(?:#[^"]*)?"/g);
      expect(links.length).toBeGreaterThan(3);
      for (const link of new Set(links)) {
        const res = await get(link);
        expect(res.statusCode, `${page} links to ${link}`).toBe(200);
      }
    }
  });

  it("writes text a visitor put in the address back escaped, never as markup", async () => {
    // The search page shows its query in the title, the field and the text.
    const typed = `<script>alert(1)</script>" autofocus onfocus=alert(1) x="`;
    const res = await get(`/klantenservice/zoeken?${new URLSearchParams({ q: typed })}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("<script>alert(1)</script>");
    expect(res.body).not.toContain('" autofocus');
    expect(res.body).toContain(
      'value="&lt;script&gt;alert(1)&lt;/script&gt;&quot; autofocus onfocus=alert(1) x=&quot;"',
    );
  });
});

describe("the cart contents page", () => {
  it("when the cart is empty, says so and links to the range", async () => {
    const res = await get("/winkelwagen/inhoud");
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Je winkelwagen is leeg");
    expect(res.body).toContain('href="/assortiment/fotoboeken"');
    expect(res.body).toContain('<meta name="robots" content="noindex">');
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });

  it("lists the lines of the shopper's cart with prices from the catalogue, and counts them in the header", async () => {
    const carts = cartRepository(shop.database.db);
    const cartId = await carts.create();
    await carts.add(
      cartId,
      { productId: "exclusive-photobook", orientation: "landscape", sizeId: "30x21" },
      2,
    );
    const res = await get("/einkaufswagen/inhalt", { cookie: `cart=${signed(shop.app, cartId)}` });
    expect(res.body).toContain("Exklusives Fotobuch");
    expect(res.body).toContain("Querformat, 30x21 cm");
    expect(res.body).toMatch(/99,98\s€/);
    expect(res.body).toContain("2 Artikel");
  });

  it("when the cart cookie was tampered with, shows an empty cart instead of someone else's", async () => {
    const carts = cartRepository(shop.database.db);
    const cartId = await carts.create();
    await carts.add(cartId, { productId: "canvas", orientation: "landscape", sizeId: "40x30" }, 1);
    const forged = `cart=${cartId}.forgedsignature`;
    const res = await get("/winkelwagen/inhoud", { cookie: forged });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Je winkelwagen is leeg");
  });

  it("when cookies are malformed, still answers normally", async () => {
    for (const cookie of ["cart", "=;=;;", "cart=%E0%A4%A", `cart=${"x".repeat(5000)}`, "_csrf=\u0000"]) {
      const res = await get("/winkelwagen/inhoud", { cookie });
      expect(res.statusCode, cookie).toBe(200);
    }
  });
});

describe("shared pages for shoppers without a cart", () => {
  it("are served from the page cache, and a shopper with a cart gets the page made for them", async () => {
    const first = await get("/de");
    const second = await get("/de");
    expect(second.body).toBe(first.body);
    expect(second.body).toContain("0 Artikel");

    const carts = cartRepository(shop.database.db);
    const cartId = await carts.create();
    await carts.add(cartId, { productId: "canvas", orientation: "landscape", sizeId: "40x30" }, 3);
    const mine = await get("/de", { cookie: `cart=${signed(shop.app, cartId)}` });
    expect(mine.body).toContain("3 Artikel");
    // The shopper's page did not replace the shared one.
    expect((await get("/de")).body).toContain("0 Artikel");
  });

  it("are shared between shoppers with as many items, each with their own form token", async () => {
    const carts = cartRepository(shop.database.db);
    const cookieFor = async (quantity: number) => {
      const cartId = await carts.create();
      await carts.add(cartId, { productId: "canvas", orientation: "landscape", sizeId: "40x30" }, quantity);
      return `cart=${signed(shop.app, cartId)}`;
    };
    const product = "/assortiment/fotoboeken/exclusief-fotoboek";
    const token = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    const anna = await get(product, { cookie: await cookieFor(2) });
    const ben = await get(product, { cookie: await cookieFor(2) });
    const carla = await get(product, { cookie: await cookieFor(5) });
    expect(anna.body).toContain("2 artikelen");
    expect(carla.body).toContain("5 artikelen");
    const withoutToken = (html: string) => html.replace(/name="_csrf" value="[^"]+"/g, "");
    expect(withoutToken(ben.body)).toBe(withoutToken(anna.body));
    expect(token(ben.body)).toBeDefined();
    expect(token(ben.body)).not.toBe(token(anna.body));
  });
});

describe("shared pages for a browser that accepts gzip", () => {
  const product = "/assortiment/fotoboeken/exclusief-fotoboek";
  const gzip = { "accept-encoding": "gzip, deflate, br, zstd" };

  it("come compressed from the cache, unpack to the same page, and carry the shopper's own working token", async () => {
    await get(product); // fills the cache
    const zipped = await get(product, gzip);
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toContain("Accept-Encoding");
    const html = gunzipSync(zipped.rawPayload).toString("utf8");
    const plain = await get(product);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const withoutToken = (page: string) => page.replace(/name="_csrf" value="[^"]+"/g, "");
    expect(withoutToken(html)).toBe(withoutToken(plain.body));

    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    expect(token).not.toBe("");
    expect(html).not.toContain("csrf-token-placeholder");
    const cookie = zipped.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const added = await shop.app.inject({
      method: "POST",
      url: "/winkelwagen/inhoud",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        product: "exclusive-photobook",
        orientation: "landscape",
        size: "30x21",
        quantity: "1",
        _csrf: token,
      }).toString(),
    });
    expect(added.statusCode).toBe(303);
  });

  it("when the browser refuses gzip, come uncompressed", async () => {
    const res = await get(product, { "accept-encoding": "gzip;q=0, identity" });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body).toContain("<h1");
  });
});
