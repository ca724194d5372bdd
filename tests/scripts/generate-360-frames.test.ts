import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { framesVersion, generateFrames } from "../../scripts/generate-360-frames.ts";
import { readConfig } from "../../server/config.ts";
import { parseCatalogue } from "../../server/domain/catalogue.ts";

const cataloguePath = readConfig({ COOKIE_SECRET: "x".repeat(32) }).cataloguePath;

/** The real catalogue cut down to one product with one front, so a run takes a second or two. */
function oneFrontCatalogue(colour = "#1f3a4d") {
  const data = JSON.parse(readFileSync(cataloguePath, "utf8"));
  const product = data.products[0];
  product.fronts = { landscape: product.fronts.landscape };
  product.sizes = product.sizes.filter((s: { orientation: string }) => s.orientation === "landscape");
  product.recommended = { ...product.recommended, orientation: "landscape", size: product.sizes[0].id };
  product.model = { shape: "book", colour };
  data.products = [product];
  return parseCatalogue(data);
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "frames-test-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("generating the 360 frames", () => {
  it("renders 36 JPEG frames of each front at 720 and 320 px", async () => {
    const outDir = tempDir();
    const catalogue = oneFrontCatalogue();
    const frontId = catalogue.fronts()[0]?.id as string;
    const lines: string[] = [];
    const result = await generateFrames({ catalogue, outDir, log: (line) => lines.push(line) });

    expect(result).toMatchObject({ skipped: false, images: 72 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^360 frames: 72 images for 1 fronts in [\d.]+ s/);
    for (const size of [720, 320]) {
      for (const n of [1, 18, 36]) {
        const meta = await sharp(join(outDir, frontId, String(size), `${n}.jpg`)).metadata();
        expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
          format: "jpeg",
          width: size,
          height: size,
        });
      }
      expect(existsSync(join(outDir, frontId, String(size), "37.jpg"))).toBe(false);
    }
    expect(readFileSync(join(outDir, "version.txt"), "utf8").trim()).toBe(result.version);
    expect(result.version).toMatch(/^[0-9a-f]{8}$/);
  });

  it("shows the product from a different side in each frame", async () => {
    const outDir = tempDir();
    const catalogue = oneFrontCatalogue();
    await generateFrames({ catalogue, outDir, log: () => {} });
    const frontId = catalogue.fronts()[0]?.id as string;
    const pixels = (n: number) =>
      sharp(join(outDir, frontId, "320", `${n}.jpg`))
        .raw()
        .toBuffer();
    const [front, side, back] = await Promise.all([pixels(1), pixels(10), pixels(19)]);
    expect(front.equals(side)).toBe(false);
    expect(front.equals(back)).toBe(false);
  });

  it("does nothing when the frames on disk are current, and starts over when a front's look changes", async () => {
    const outDir = tempDir();
    const catalogue = oneFrontCatalogue();
    const first = await generateFrames({ catalogue, outDir, log: () => {} });
    const frame = join(outDir, catalogue.fronts()[0]?.id as string, "720", "1.jpg");
    const written = statSync(frame).mtimeMs;

    const again = await generateFrames({ catalogue, outDir, log: () => {} });
    expect(again).toEqual({ version: first.version, skipped: true, images: 0 });
    expect(statSync(frame).mtimeMs).toBe(written);

    const recoloured = oneFrontCatalogue("#8a3b2e");
    expect(await framesVersion(recoloured)).not.toBe(first.version);
    const redone = await generateFrames({ catalogue: recoloured, outDir, log: () => {} });
    expect(redone.skipped).toBe(false);
  });

  it("removes the frames of fronts that left the catalogue", async () => {
    const outDir = tempDir();
    mkdirSync(join(outDir, "retired-front", "720"), { recursive: true });
    writeFileSync(join(outDir, "retired-front", "720", "1.jpg"), "old");
    writeFileSync(join(outDir, "version.txt"), "00000000\n");
    await generateFrames({ catalogue: oneFrontCatalogue(), outDir, log: () => {} });
    expect(existsSync(join(outDir, "retired-front"))).toBe(false);
  });
});
