import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { combined, load, ResponseReader } from "../../scripts/load-generator.ts";

/** Feeds the bytes in pieces of the given size and collects the answers read. */
function read(wire: string, piece: number): Array<[number, number]> {
  const seen: Array<[number, number]> = [];
  const reader = new ResponseReader((status, bytes) => seen.push([status, bytes]));
  const bytes = Buffer.from(wire, "latin1");
  for (let at = 0; at < bytes.length; at += piece) reader.push(bytes.subarray(at, at + piece));
  return seen;
}

const fixed = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nContent-Type: text/html\r\n\r\nhello world";
const chunked =
  "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n";
const empty = "HTTP/1.1 204 No Content\r\nDate: today\r\n\r\n";

describe("the bench's response reader", () => {
  it("reads answers however the bytes are cut, also one byte at a time", () => {
    for (const piece of [1, 2, 3, 7, 64, 4096]) {
      expect(read(fixed + chunked + empty + fixed, piece), `pieces of ${piece}`).toEqual([
        [200, 11],
        [404, 11],
        [204, 0],
        [200, 11],
      ]);
    }
  });

  it("refuses a chunk size that is no number, so the connection is dropped and counted", () => {
    expect(() => read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 4096)).toThrow(
      /bad chunk size/,
    );
  });
});

describe("the bench's load generator", () => {
  it("keeps every connection busy and counts answers, statuses and body bytes", async () => {
    let served = 0;
    const server = createServer((request, response) => {
      served++;
      if (request.url === "/chunked") {
        response.write("abc");
        response.end("defg");
        return;
      }
      response.writeHead(request.url === "/missing" ? 404 : 200, { "content-length": "5" }).end("12345");
    });
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    const { port } = server.address() as { port: number };
    try {
      const plain = await load({ url: `http://127.0.0.1:${port}/`, connections: 4, duration: 0.3 });
      expect(plain.requests).toBeGreaterThan(10);
      expect(plain.statusCounts).toEqual({ 200: plain.requests });
      expect(plain.bodyBytes).toBe(5);
      expect(plain.errors).toBe(0);
      expect(served).toBeGreaterThanOrEqual(plain.requests);

      const streamed = await load({ url: `http://127.0.0.1:${port}/chunked`, connections: 2, duration: 0.2 });
      expect(streamed.bodyBytes).toBe(7);
      const missing = await load({ url: `http://127.0.0.1:${port}/missing`, connections: 2, duration: 0.2 });
      expect(Object.keys(missing.statusCounts)).toEqual(["404"]);

      // Slices of a measurement taken apart, as the bench takes them, add up to one.
      const slices = [plain, streamed, missing];
      const whole = combined(slices);
      const requests = plain.requests + streamed.requests + missing.requests;
      expect(whole.requests).toBe(requests);
      expect(whole.seconds).toBeCloseTo(plain.seconds + streamed.seconds + missing.seconds);
      expect(whole.requestsPerSecond).toBeCloseTo(requests / whole.seconds);
      expect(whole.bodyBytes).toBeCloseTo(
        (5 * plain.requests + 7 * streamed.requests + 5 * missing.requests) / requests,
      );
      expect(whole.statusCounts).toEqual({ 200: plain.requests + streamed.requests, 404: missing.requests });
      expect(whole.latencyP99Ms).toBeGreaterThanOrEqual(Math.min(...slices.map((s) => s.latencyP99Ms)));
      expect(whole.latencyP99Ms).toBeLessThanOrEqual(Math.max(...slices.map((s) => s.latencyP99Ms)));
    } finally {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    }
  });
});
