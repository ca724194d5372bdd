import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { frameUrl } from "../../server/domain/viewer-frames.ts";
import { readFramesVersion } from "../../server/routes/viewer-frames.ts";
import { type TestShop, testConfig, testShop } from "../support/app.ts";

const version = "1a2b3c4d";
const framesDir = mkdtempSync(join(tmpdir(), "frames-route-"));
const catalogue = loadCatalogue(testConfig().cataloguePath);
const front = catalogue.fronts()[0]?.id as string;
const url = (path: string) => `/pages/productpage/360/${path}`;

let shop: TestShop;
let jpeg: Buffer;
beforeAll(async () => {
  jpeg = await sharp({ create: { width: 720, height: 720, channels: 3, background: "#ddd" } })
    .jpeg()
    .toBuffer();
  for (const [size, n] of [
    ["720", 1],
    ["720", 36],
    ["320", 1],
  ] as const) {
    mkdirSync(join(framesDir, front, size), { recursive: true });
    writeFileSync(join(framesDir, front, size, `${n}.jpg`), jpeg);
  }
  writeFileSync(join(framesDir, "version.txt"), `${version}\n`);
  shop = await testShop({ env: { FRAMES_DIR: framesDir, PATTERN_LIBRARY: "true" } });
});
afterAll(async () => {
  await shop.close();
  rmSync(framesDir, { recursive: true, force: true });
});

describe("the 360 viewer's frame images", () => {
  it("are served as JPEG, cached for good at the current version", async () => {
    const res = await shop.app.inject({ url: `${url(`${front}/720/1.jpg`)}?v=${version}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/jpeg");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.rawPayload.equals(jpeg)).toBe(true);
  });

  it("are cached only briefly when the address has an old or no version", async () => {
    for (const query of ["", "?v=00000000"]) {
      const res = await shop.app.inject({ url: `${url(`${front}/320/1.jpg`)}${query}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("public, max-age=300");
    }
  });

  it("answer 404 with the shop's page for a product front that does not exist", async () => {
    const res = await shop.app.inject({ url: url("no-such-front/720/1.jpg") });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.body).toContain("Pagina niet gevonden");
  });

  it("answer 404 for a size or frame number the viewer never asks for", async () => {
    for (const path of [
      `${front}/480/1.jpg`,
      `${front}/0720/1.jpg`,
      `${front}/720/0.jpg`,
      `${front}/720/37.jpg`,
      `${front}/720/abc.jpg`,
      `${front}/720/07.jpg`,
      `${front}/720/1.png`,
      `${front}/720/1`,
    ]) {
      const res = await shop.app.inject({ url: url(path) });
      expect(res.statusCode, path).toBe(404);
    }
  });

  it("answer 404 for a frame that was not generated", async () => {
    const res = await shop.app.inject({ url: `${url(`${front}/720/2.jpg`)}?v=${version}` });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(String(res.headers["cache-control"] ?? "")).not.toContain("immutable");
  });

  it("never reach outside the frames directory", async () => {
    for (const path of [
      `..%2F..%2Fpackage.json/720/1.jpg`,
      `${front}/..%2F..%2F${front}/1.jpg`,
      `${front}/720/..%2Fversion.txt`,
      `${front}/720/%2E%2E%2F%2E%2E%2Fversion.txt`,
      `..%2F${front}/720/1.jpg`,
    ]) {
      const res = await shop.app.inject({ url: url(path) });
      expect(res.statusCode, path).toBe(404);
      expect(res.headers["content-type"], path).toMatch(/^text\/html/);
    }
  });
});

describe("the 360 viewer's markup", () => {
  it("when JavaScript is unavailable: shows the first frame as a plain, eagerly loaded image", async () => {
    const res = await shop.app.inject({ url: "/patroonbibliotheek" });
    expect(res.statusCode).toBe(200);
    const island = res.body.match(/<div class="viewer360" data-island="viewer360">[\s\S]*?<\/figure>/)?.[0];
    expect(island).toBeDefined();
    const img = island?.match(/<img [^>]*>/)?.[0] ?? "";
    const example = catalogue.products.find((p) => p.freeShipping) ?? catalogue.products[0];
    const frontId = example?.fronts[example.recommended.orientation] as string;
    // The partial builds the same addresses as frameUrl(), which the route serves.
    expect(img).toContain(`src="${frameUrl("", frontId, 720, 1, version)}"`);
    expect(img).toContain(
      `srcset="${frameUrl("", frontId, 320, 1, version)} 320w, ${frameUrl("", frontId, 720, 1, version)} 720w"`,
    );
    expect(img).toContain('width="720" height="720"');
    expect(img).toContain('fetchpriority="high"');
    expect(img).not.toContain("loading=");
    expect(img).toMatch(/alt="[^"]+"/);
  });

  it("hands the island its front, version and texts", async () => {
    const res = await shop.app.inject({ url: "/musterbibliothek" });
    const json = res.body.match(
      /data-island="viewer360">\s*<script type="application\/json" data-props>([^<]*)<\/script>/,
    )?.[1];
    const props = JSON.parse(json ?? "null");
    expect(props).toMatchObject({ version, imageHost: "", texts: { turnLeft: "Nach links drehen" } });
    expect(catalogue.fronts().map((f) => f.id)).toContain(props.frontId);
  });
});

describe("readFramesVersion", () => {
  it("reads the generator's version, or 0 before the frames exist", () => {
    expect(readFramesVersion(framesDir)).toBe(version);
    expect(readFramesVersion(join(framesDir, "nowhere"))).toBe("0");
  });
});
