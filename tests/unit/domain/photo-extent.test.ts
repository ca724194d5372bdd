import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { photoExtent } from "../../../server/domain/photo-extent.ts";
import { photos } from "../../support/photos.ts";

const picture = () => sharp({ create: { width: 320, height: 240, channels: 3, background: "#224466" } });

describe("where a photo's image ends", () => {
  it("is the end of a JPEG's end-of-image marker, whatever follows it", async () => {
    const jpeg = await photos.jpeg();
    expect(photoExtent(jpeg, "jpeg")).toBe(jpeg.length);
    expect(photoExtent(photos.withJunkAfter(jpeg, 5000), "jpeg")).toBe(jpeg.length);
    // Junk that is itself a JPEG's ending: the first end met after the scan still counts.
    expect(photoExtent(Buffer.concat([jpeg, Buffer.from([0xff, 0xd9])]), "jpeg")).toBe(jpeg.length);
  });

  it("skips an end-of-image marker inside a segment, and reads every scan of a progressive JPEG", async () => {
    const jpeg = await picture().jpeg().toBuffer();
    const comment = Buffer.from([0xff, 0xfe, 0x00, 0x06, 0xff, 0xd9, 0xff, 0xd9]);
    const withMarker = Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]);
    expect(photoExtent(withMarker, "jpeg")).toBe(withMarker.length);
    const progressive = await picture().jpeg({ progressive: true }).toBuffer();
    expect(photoExtent(progressive, "jpeg")).toBe(progressive.length);
    const noisy = await photos.noisyJpeg(300);
    expect(photoExtent(noisy, "jpeg")).toBe(noisy.length);
  });

  it("is unknown for a JPEG cut off before its end", async () => {
    const jpeg = await photos.jpeg();
    expect(photoExtent(jpeg.subarray(0, jpeg.length - 2), "jpeg")).toBeUndefined();
    expect(photoExtent(jpeg.subarray(0, 120), "jpeg")).toBeUndefined();
  });

  it("is the end of a PNG's IEND chunk, of a WebP's RIFF chunk and of an AVIF's last box", async () => {
    for (const [format, file] of [
      ["png", await picture().png().toBuffer()],
      ["webp", await picture().webp().toBuffer()],
      ["avif", await picture().avif().toBuffer()],
    ] as const) {
      expect(photoExtent(file, format)).toBe(file.length);
      expect(photoExtent(photos.withJunkAfter(file, 3000), format)).toBe(file.length);
    }
  });

  it("is unknown for a PNG without its IEND and a WebP shorter than it says", async () => {
    const png = await picture().png().toBuffer();
    expect(photoExtent(png.subarray(0, png.length - 12), "png")).toBeUndefined();
    const webp = await picture().webp().toBuffer();
    expect(photoExtent(webp.subarray(0, webp.length - 10), "webp")).toBeUndefined();
  });

  it("takes in the images a JPEG's MPF index declares after the first, and nothing after them", async () => {
    const primary = await photos.jpeg();
    const gainMap = await picture().jpeg().toBuffer();
    const ultraHdr = photos.withDeclaredSecondImage(primary, gainMap);
    expect(photoExtent(ultraHdr, "jpeg")).toBe(ultraHdr.length);
    expect(photoExtent(photos.withJunkAfter(ultraHdr, 4000), "jpeg")).toBe(ultraHdr.length);
    // Junk where the index says an image is: only the primary counts.
    const junkDeclared = Buffer.from(ultraHdr);
    junkDeclared.fill(0x41, ultraHdr.length - gainMap.length);
    expect(photoExtent(junkDeclared, "jpeg")).toBe(ultraHdr.length - gainMap.length);
  });
});
