import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  acceptsGzip,
  createPageCache,
  cutPage,
  fillPage,
  fillPageGzip,
  newTokenMarker,
} from "../../server/http/caching/page-cache.ts";

/** The marker one rendering puts where its forms' token goes. */
const marker = newTokenMarker();

const text = (page: ReturnType<typeof cutPage> | undefined) =>
  page ? fillPage(page, () => "T").toString() : undefined;

describe("the page cache", () => {
  it("keeps a page for its time to live, then forgets it", () => {
    let now = 0;
    const cache = createPageCache({ ttlMs: 1000, now: () => now });
    cache.set("nl /", cutPage("<p>home</p>", marker));
    now = 999;
    expect(text(cache.get("nl /"))).toBe("<p>home</p>");
    now = 1000;
    expect(cache.get("nl /")).toBeUndefined();
  });

  it("holds at most its number of pages, dropping the oldest", () => {
    const cache = createPageCache({ maxEntries: 2 });
    cache.set("a", cutPage("1", marker));
    cache.set("b", cutPage("2", marker));
    cache.set("a", cutPage("1 again", marker));
    cache.set("c", cutPage("3", marker));
    expect(cache.get("b")).toBeUndefined();
    expect(text(cache.get("a"))).toBe("1 again");
    expect(text(cache.get("c"))).toBe("3");
  });
});

describe("a cached page with a form", () => {
  const html = `<form><input name="_csrf" value="${marker}"></form><form><input value="${marker}"></form>`;

  it("gets each shopper's own token where the marker was", () => {
    const page = cutPage(html, marker);
    expect(fillPage(page, () => "anna").toString()).toBe(
      '<form><input name="_csrf" value="anna"></form><form><input value="anna"></form>',
    );
    expect(fillPage(page, () => "ben").toString()).not.toContain("anna");
  });

  it("asks for a token only when the page has a form", () => {
    let asked = 0;
    fillPage(cutPage("<p>no form</p>", marker), () => `${++asked}`);
    expect(asked).toBe(0);
    fillPage(cutPage(html, marker), () => `${++asked}`);
    expect(asked).toBe(1);
  });

  it("is cut only at its own rendering's marker: another marker's text, typed into the page, stays as typed", () => {
    const other = newTokenMarker();
    expect(other).not.toBe(marker);
    expect(other).toMatch(/^[a-z0-9-]+$/);
    const typed = `<p>Gezocht: ${other} en csrf-token-placeholder-7c1e</p>`;
    const page = cutPage(`${typed}${html}`, marker);
    expect(fillPage(page, () => "anna").toString()).toBe(
      `${typed}<form><input name="_csrf" value="anna"></form><form><input value="anna"></form>`,
    );
  });
});

describe("a cached page for a browser that accepts gzip", () => {
  // gunzip checks the stream, its CRC-32 and its length: a wrong splice throws.
  const unzipped = (html: string, token: string) =>
    gunzipSync(fillPageGzip(cutPage(html, marker), () => token)).toString("utf8");

  it("unpacks to exactly the page the browser would get uncompressed", () => {
    const html = `<h1>Fotoboek – 30 × 21 cm</h1><form><input value="${marker}"></form><p>€ 49,99</p>`;
    expect(unzipped(html, "tok-1")).toBe(fillPage(cutPage(html, marker), () => "tok-1").toString("utf8"));
  });

  it("works for a page without a form, with a token at either end, and with many forms", () => {
    for (const html of [
      "<p>geen formulier</p>",
      `${marker}<p>midden</p>${marker}`,
      Array.from({ length: 20 }, (_, i) => `<form>${i}<input value="${marker}"></form>`).join(""),
    ]) {
      expect(unzipped(html, "anna")).toBe(html.split(marker).join("anna"));
    }
  });

  it("stays correct for any page and token (property test)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), { minLength: 1, maxLength: 6 }),
        fc.string({ minLength: 1, maxLength: 80 }),
        (pieces, token) => {
          const html = pieces.join(marker);
          expect(unzipped(html, token)).toBe(pieces.join(token));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("answers the same page again with other tokens, from its blocks, for any page (property test)", () => {
    // The first answer is compressed whole; the second and later are spliced from the blocks.
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.string({ minLength: 1, maxLength: 80 }), { minLength: 2, maxLength: 4 }),
        (pieces, tokens) => {
          const page = cutPage(pieces.join(marker), marker);
          for (const token of tokens) {
            expect(gunzipSync(fillPageGzip(page, () => token)).toString("utf8")).toBe(pieces.join(token));
          }
          expect(page.blocks !== undefined).toBe(pieces.length > 1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("is a fraction of the page's size", () => {
    const html = `<main>${"<li class=card>Fotoboek 30x21 cm, vanaf € 49,99</li>".repeat(400)}<input value="${marker}"></main>`;
    expect(fillPageGzip(cutPage(html, marker), () => "t").length).toBeLessThan(Buffer.byteLength(html) / 10);
  });
});

describe("reading Accept-Encoding", () => {
  it("takes gzip where the browser offers it, and not where it refuses it", () => {
    expect(acceptsGzip("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsGzip("br;q=1.0, gzip;q=0.8")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("br, identity")).toBe(false);
    expect(acceptsGzip("")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it("answers each browser for its own header, asked one after another", () => {
    for (const [header, gzip] of [
      ["gzip;q=0", false],
      ["gzip;q=0", false],
      ["gzip", true],
      ["gzip", true],
      ["identity", false],
      ["gzip;q=0.5", true],
    ] as const) {
      expect(acceptsGzip(header), header).toBe(gzip);
    }
  });
});
