import { describe, expect, it } from "vitest";
import { createPageCache } from "../../server/http/page-cache.ts";

describe("the page cache", () => {
  it("keeps a page for its time to live, then forgets it", () => {
    let now = 0;
    const cache = createPageCache({ ttlMs: 1000, now: () => now });
    cache.set("nl /", "<p>home</p>");
    now = 999;
    expect(cache.get("nl /")?.toString()).toBe("<p>home</p>");
    now = 1000;
    expect(cache.get("nl /")).toBeUndefined();
  });

  it("holds at most its number of pages, dropping the oldest", () => {
    const cache = createPageCache({ maxEntries: 2 });
    cache.set("a", "1");
    cache.set("b", "2");
    cache.set("a", "1 again");
    cache.set("c", "3");
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")?.toString()).toBe("1 again");
    expect(cache.get("c")?.toString()).toBe("3");
  });
});
