import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { detectPhotoFormat, maxFtypBytes } from "../../../server/domain/photo-type.ts";

const image = (format: "jpeg" | "png" | "webp" | "avif") =>
  sharp({ create: { width: 16, height: 16, channels: 3, background: "#808080" } })
    .toFormat(format)
    .toBuffer();

const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + 4 * compatible.length;
  return Buffer.concat([
    Buffer.from([0, 0, 0, size]),
    Buffer.from(`ftyp${major}`),
    Buffer.alloc(4),
    ...compatible.map((b) => Buffer.from(b)),
    Buffer.alloc(16),
  ]);
};

describe("what a file is, by its content", () => {
  it("recognises the photo formats the shop takes", async () => {
    expect(detectPhotoFormat(await image("jpeg"))).toBe("jpeg");
    expect(detectPhotoFormat(await image("png"))).toBe("png");
    expect(detectPhotoFormat(await image("webp"))).toBe("webp");
    expect(detectPhotoFormat(await image("avif"))).toBe("avif");
  });

  it("tells HEIC from AVIF by the brands in the file's first box", () => {
    expect(detectPhotoFormat(ftyp("heic", "mif1", "heic"))).toBe("heic");
    expect(detectPhotoFormat(ftyp("mif1", "heic"))).toBe("heic");
    expect(detectPhotoFormat(ftyp("avif", "mif1", "avif"))).toBe("avif");
    expect(detectPhotoFormat(ftyp("mif1", "avif", "mif1"))).toBe("avif");
    // A video in the same container family is no photo.
    expect(detectPhotoFormat(ftyp("isom", "mp41"))).toBeUndefined();
  });

  it("does not go by the name: text, a PDF or a GIF renamed to .jpg stays what it is", () => {
    expect(detectPhotoFormat(Buffer.from("hallo, dit is tekst"))).toBeUndefined();
    expect(detectPhotoFormat(Buffer.from("%PDF-1.7\n"))).toBeUndefined();
    expect(detectPhotoFormat(Buffer.from("GIF89a......"))).toBeUndefined();
    expect(detectPhotoFormat(Buffer.alloc(0))).toBeUndefined();
    expect(detectPhotoFormat(Buffer.from([0xff, 0xd8]))).toBeUndefined();
  });

  it("reads a box that claims to be huge only as far as its first kilobyte", () => {
    // A box claiming 4 GB (0xffffffff), an unknown major brand, and "avif" only after the first kilobyte.
    const claim = (avifAt: number) => {
      const bytes = Buffer.alloc(2 * 1024 * 1024, "x");
      Buffer.from([0xff, 0xff, 0xff, 0xff]).copy(bytes, 0);
      Buffer.from("ftypisom").copy(bytes, 4);
      Buffer.from("avif").copy(bytes, avifAt);
      return bytes;
    };
    expect(detectPhotoFormat(claim(64))).toBe("avif");
    expect(detectPhotoFormat(claim(maxFtypBytes - 4))).toBe("avif");
    expect(detectPhotoFormat(claim(maxFtypBytes))).toBeUndefined();
    expect(detectPhotoFormat(claim(1024 * 1024))).toBeUndefined();
  });
});
