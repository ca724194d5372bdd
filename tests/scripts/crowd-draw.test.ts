import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { drawnAtRandom, drawnByWeight, eachOnce, seededRandom } from "../../scripts/crowd-draw.ts";
import { load, requestBytes } from "../../scripts/load-generator.ts";

const crowd = Array.from({ length: 2000 }, (_, n) => `shopper-${n}`);

describe("the bench's crowd, each shopper once", () => {
  it("gives every shopper exactly once, shuffled, then nothing for good", () => {
    const next = eachOnce(crowd, seededRandom(1));
    const drawn: string[] = [];
    for (let shopper = next(); shopper !== undefined; shopper = next()) drawn.push(shopper);
    expect(drawn).toHaveLength(crowd.length);
    expect(new Set(drawn).size).toBe(crowd.length);
    expect([...drawn].sort()).toEqual([...crowd].sort());
    // Shuffled, not in the crowd's own order.
    expect(drawn).not.toEqual(crowd);
    expect([next(), next()]).toEqual([undefined, undefined]);
  });

  it("reaches the server as one request per shopper, over many connections, then stops", async () => {
    const seen = new Map<string, number>();
    const server = createServer((request, response) => {
      const who = request.headers.cookie ?? "";
      seen.set(who, (seen.get(who) ?? 0) + 1);
      response.writeHead(200, { "content-length": "2" }).end("ok");
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const { port } = server.address() as { port: number };
    try {
      const url = new URL(`http://127.0.0.1:${port}/winkelwagen/inhoud`);
      const requests = crowd.map((shopper) => requestBytes(url, { cookie: `cart=${shopper}` }));
      // A duration far longer than the crowd needs: the load ends when the shoppers run out.
      const result = await load({
        url: url.href,
        connections: 50,
        duration: 60,
        source: eachOnce(requests, seededRandom(2)),
      });
      expect(result.requests).toBe(crowd.length);
      expect(result.errors).toBe(0);
      expect(result.seconds).toBeLessThan(60);
      expect(seen.size).toBe(crowd.length);
      expect([...seen.values()].every((times) => times === 1)).toBe(true);
      expect([...seen.keys()].sort()).toEqual(crowd.map((shopper) => `cart=${shopper}`).sort());
    } finally {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    }
  });
});

describe("the bench's crowd at random and the sale hour's mix", () => {
  it("draws shoppers with repeats, from the crowd only", () => {
    const next = drawnAtRandom(crowd.slice(0, 10), seededRandom(3));
    const drawn = Array.from({ length: 1000 }, next);
    expect(new Set(drawn).size).toBe(10);
    expect(drawn.every((shopper) => crowd.slice(0, 10).includes(shopper as string))).toBe(true);
    expect(() => drawnAtRandom([])).toThrow(/nobody/);
  });

  it("draws pages in their weights' shares", () => {
    const next = drawnByWeight(
      [
        { weight: 70, item: "product" },
        { weight: 30, item: "cart" },
        { weight: 0, item: "never" },
      ],
      seededRandom(4),
    );
    const counts = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      const page = next() as string;
      counts.set(page, (counts.get(page) ?? 0) + 1);
    }
    expect((counts.get("product") ?? 0) / 100_000).toBeCloseTo(0.7, 1);
    expect((counts.get("cart") ?? 0) / 100_000).toBeCloseTo(0.3, 1);
    expect(counts.has("never")).toBe(false);
    expect(() => drawnByWeight([{ weight: 0, item: "x" }])).toThrow(/weights/);
  });
});
