import { gunzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptsGzip, createPageCache, keptPage, pageGzip } from "../../server/http/caching/page-cache.ts";

const text = (page: ReturnType<typeof keptPage> | undefined) => page?.html.toString();

describe("the page cache", () => {
  it("keeps a page for its time to live, then forgets it", () => {
    let now = 0;
    const cache = createPageCache({ ttlMs: 1000, now: () => now });
    cache.set("nl /", keptPage("<p>home</p>", true));
    now = 999;
    expect(text(cache.get("nl /"))).toBe("<p>home</p>");
    now = 1000;
    expect(cache.get("nl /")).toBeUndefined();
  });

  it("holds at most its number of pages, dropping the oldest", () => {
    const cache = createPageCache({ maxEntries: 2 });
    cache.set("a", keptPage("1", true));
    cache.set("b", keptPage("2", true));
    cache.set("a", keptPage("1 again", true));
    cache.set("c", keptPage("3", true));
    expect(cache.get("b")).toBeUndefined();
    expect(text(cache.get("a"))).toBe("1 again");
    expect(text(cache.get("c"))).toBe("3");
  });
});

describe("a kept page for a browser that accepts gzip", () => {
  it("unpacks to exactly the page, for any page, at either level (property test)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 2000 }), fc.boolean(), (html, often) => {
        const page = keptPage(html, often);
        expect(gunzipSync(pageGzip(page)).toString("utf8")).toBe(html);
        // Compressed once: the second answer is the same bytes.
        expect(pageGzip(page)).toBe(pageGzip(page));
      }),
      { numRuns: 200 },
    );
  });

  it("is a fraction of the page's size", () => {
    const html = `<main>${"<li class=card>Fotoboek 30x21 cm, vanaf € 49,99</li>".repeat(400)}</main>`;
    for (const often of [true, false]) {
      expect(pageGzip(keptPage(html, often)).length).toBeLessThan(Buffer.byteLength(html) / 10);
    }
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
