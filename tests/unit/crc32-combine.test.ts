import { crc32 } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32Combine, crc32Shift } from "../../server/http/caching/crc32-combine.ts";

const crcOf = (bytes: Uint8Array) => (bytes.length > 0 ? crc32(bytes) : 0);

describe("combining CRC-32 checksums", () => {
  it("gives the checksum of two pieces joined, whatever their contents and lengths", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        const joined = Buffer.concat([a, b]);
        expect(crc32Combine(crcOf(a), crcOf(b), crc32Shift(b.length))).toBe(crcOf(joined));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves a checksum alone when nothing follows", () => {
    const crc = crc32("<p>home</p>");
    expect(crc32Combine(crc, 0, crc32Shift(0))).toBe(crc);
  });

  it("moves past long pieces, as a page of tens of kilobytes is", () => {
    const a = Buffer.from("<!doctype html>".repeat(10));
    const b = Buffer.alloc(70_000, "x");
    expect(crc32Combine(crc32(a), crc32(b), crc32Shift(b.length))).toBe(crc32(Buffer.concat([a, b])));
  });
});
