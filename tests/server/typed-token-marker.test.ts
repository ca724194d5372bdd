import { gunzipSync } from "node:zlib";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { shopper } from "../support/shopper.ts";

/**
 * Kept pages once carried a marker where their forms' token went, filled in per answer. The
 * marker was once a fixed text: typed into the search box, or into a form whose values a
 * page shows back, it became that shopper's token on the page. Whatever the shop does with
 * tokens, the text a shopper types must come back as typed, fresh or kept, with or without gzip.
 */
const typed = "csrf-token-placeholder-7c1e";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const body = (res: LightMyRequestResponse) =>
  res.headers["content-encoding"] === "gzip" ? gunzipSync(res.rawPayload).toString("utf8") : res.body;
const tokensIn = (html: string) =>
  [...html.matchAll(/name="_csrf" value="([^"]+)"/g)].map((m) => m[1] as string);
/** How often a token appears in a page besides the forms' own token fields: it should be never. */
const elsewhere = (html: string, token: string) =>
  html.split(token).length - 1 - tokensIn(html).filter((t) => t === token).length;
/** The value a page shows back in one of its fields. */
const fieldValue = (html: string, name: string) =>
  new RegExp(`<input [^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1] ??
  new RegExp(`<input [^>]*value="([^"]*)"[^>]*name="${name}"`).exec(html)?.[1];

describe("text that looks like a kept page's token marker", () => {
  const search = `/klantenservice/zoeken?${new URLSearchParams({ q: typed })}`;

  it("typed into the search box comes back as typed to a visitor without cookies, fresh and kept, never as the shared token", async () => {
    const shared = shop.app.sharedFormTokens.current();
    for (const encoding of [undefined, undefined, "gzip", "gzip"]) {
      const res = await shop.app.inject({
        url: search,
        headers: { host: "shop.test", ...(encoding ? { "accept-encoding": encoding } : {}) },
      });
      expect(res.statusCode).toBe(200);
      const html = body(res);
      expect(fieldValue(html, "q")).toBe(typed);
      expect(html).toContain(`„${typed}”`);
      // The shared token only in the forms' own fields, if the page has any.
      expect(elsewhere(html, shared)).toBe(0);
    }
  });

  it("typed into the search box comes back as typed to a shopper, fresh and kept, never as their token", async () => {
    const anna = await shopper(shop.app);
    const seen = new Set<string>();
    for (const encoding of [undefined, "gzip", undefined, "gzip"]) {
      const res = await anna.get(search, encoding ? { "accept-encoding": encoding } : {});
      expect(res.statusCode).toBe(200);
      const html = body(res);
      expect(fieldValue(html, "q")).toBe(typed);
      expect(html).toContain(`„${typed}”`);
      for (const token of tokensIn(html)) seen.add(token);
    }
    seen.add(anna.token);
    const page = body(await anna.get(search, { "accept-encoding": "gzip" }));
    for (const token of seen)
      expect(page.split(token).length - 1).toBe(tokensIn(page).filter((t) => t === token).length);
  });

  it("given as a name in the delivery address comes back in the form as typed, fresh and kept, never as a token", async () => {
    const anna = await shopper(shop.app);
    const added = await anna.post("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    expect(added.statusCode).toBe(303);
    const saved = await anna.post("/winkelwagen/adres", {
      name: typed,
      street: "Dorpsstraat 12",
      postcode: "1234 AB",
      city: "Utrecht",
      country: "NL",
      email: "anna@example.nl",
    });
    expect(saved.statusCode).toBe(303);
    for (const encoding of [undefined, "gzip", undefined, "gzip"]) {
      const res = await anna.get("/winkelwagen/adres", encoding ? { "accept-encoding": encoding } : {});
      expect(res.statusCode).toBe(200);
      const html = body(res);
      expect(fieldValue(html, "name")).toBe(typed);
      const tokens = tokensIn(html);
      expect(tokens.length).toBeGreaterThan(0);
      for (const token of tokens) {
        expect(token).not.toBe(typed);
        expect(elsewhere(html, token)).toBe(0);
      }
    }
  });

  it("typed into a form that is refused comes back as typed in the form shown again (422)", async () => {
    const anna = await shopper(shop.app);
    await anna.post("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    await anna.get("/winkelwagen/adres");
    const refused = await anna.post("/winkelwagen/adres", {
      name: typed,
      street: "",
      postcode: "1234 AB",
      city: "Utrecht",
      country: "NL",
      email: "anna@example.nl",
    });
    expect(refused.statusCode).toBe(422);
    expect(fieldValue(refused.body, "name")).toBe(typed);
    for (const token of tokensIn(refused.body)) expect(elsewhere(refused.body, token)).toBe(0);
  });
});
