import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import {
  exifMainTags,
  expectOnlyKept,
  multipart,
  photos,
  startBookWith,
  storedUploads,
} from "../support/photos.ts";

/**
 * What a photo carries besides its picture. A file is kept only when it is one image with
 * nothing after it (a decoder stops at the image's end and never sees the rest), and the
 * original is stored without the place it was taken: no EXIF GPS, no XMP location, while
 * its pixels, orientation, colour profile and capture date stay as they were.
 */

const plain = (s: string) => s.replace(/\s+/g, " ");
const ajax = (browser: BrowserSession) => ({
  "x-requested-with": "XMLHttpRequest",
  "x-csrf-token": browser.token,
});

/** Sends files the way the enhanced uploader does, at the Dutch or German address. */
async function uploadAjax(
  shop: TestShop,
  locale: "nl" | "de",
  files: Array<{ filename: string; data: Buffer }>,
) {
  const browser = new BrowserSession(shop.app);
  const start = locale === "nl" ? "/fotoboek-maken" : "/fotobuch-gestalten";
  await browser.get(
    `${start}?${locale === "nl" ? "fotoboek=exclusief-fotoboek" : "fotobuch=exklusives-fotobuch"}`,
  );
  return browser.post(
    `${start}/fotos`,
    multipart(files.map((file) => ({ name: "photo", file }))),
    ajax(browser),
  );
}

/** The id of the upload named `name`: its files are stored under it. */
const storedId = async (shop: TestShop, name: string) =>
  (
    await shop.database.db
      .selectFrom("uploads")
      .select("id")
      .where("original_name", "=", name)
      .executeTakeFirstOrThrow()
  ).id;

/** The stored original of the upload named `name`. */
const storedOriginal = async (shop: TestShop, name: string): Promise<Buffer> =>
  readFileSync(join(shop.config.dataDir, "uploads", "originals", await storedId(shop, name)));

/** The picture itself, decoded: what a print is made from. */
const pixels = (file: Buffer) => sharp(file).raw().toBuffer();

describe("a photo with something after its end", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop();
  });
  afterAll(() => shop.close());

  it("a 3 KB JPEG with 24 MB of junk after it is refused for a shopper with JavaScript, and nothing of it is stored", async () => {
    const small = await photos.jpeg(400, 300);
    expect(small.length).toBeLessThan(4 * 1024);
    const padded = photos.withJunkAfter(small, 24 * 1024 * 1024);
    const before = await storedUploads(shop);
    const res = await uploadAjax(shop, "nl", [{ filename: "strand.jpg", data: padded }]);
    expect(res.statusCode).toBe(422);
    expect(plain(res.body)).toContain(
      "strand.jpg: na de foto zelf staat nog andere inhoud in dit bestand, dus we bewaren het niet.",
    );
    expect(res.body).not.toContain("data-upload-item");
    await expectOnlyKept(shop, before, [], [padded]);
  });

  it("with a 2 MB tail, under every size limit, it is refused too, while the plain photo sent next to it is kept", async () => {
    const padded = photos.withJunkAfter(await photos.jpeg(400, 300), 2 * 1024 * 1024);
    const before = await storedUploads(shop);
    const res = await uploadAjax(shop, "de", [
      { filename: "anhang.jpg", data: padded },
      { filename: "strand.jpg", data: await photos.jpeg() },
    ]);
    expect(res.statusCode).toBe(422);
    expect(plain(res.body)).toContain(
      "anhang.jpg: Nach dem eigentlichen Foto enthält diese Datei noch weitere Daten, deshalb speichern wir sie nicht.",
    );
    expect(res.body.match(/<li class="staged-photo" data-upload-item>/g)).toHaveLength(1);
    await expectOnlyKept(shop, before, ["strand.jpg"], [padded]);
  });

  it("is refused for a shopper without JavaScript starting a book, the form back with the format chosen", async () => {
    const padded = photos.withJunkAfter(await photos.png(), 2 * 1024 * 1024);
    const before = await storedUploads(shop);
    const res = await startBookWith(new BrowserSession(shop.app), "nl", [
      { filename: "anhang.png", data: padded, type: "image/png" },
    ]);
    expect(res.statusCode).toBe(422);
    const page = plain(res.body);
    expect(page).toContain("anhang.png: na de foto zelf staat nog andere inhoud in dit bestand");
    expect(page).toContain('<option value="portrait:21x30" selected>');
    await expectOnlyKept(shop, before, [], [padded]);
  });

  it("a WebP with bytes after its RIFF chunk is refused; one whose end is where it says is kept", async () => {
    const webp = await photos.webp();
    const padded = photos.withJunkAfter(webp, 64 * 1024);
    const before = await storedUploads(shop);
    const res = await startBookWith(new BrowserSession(shop.app), "de", [
      { filename: "anhang.webp", data: padded, type: "image/webp" },
      { filename: "gut.webp", data: webp, type: "image/webp" },
    ]);
    expect(res.statusCode).toBe(303);
    await expectOnlyKept(shop, before, ["gut.webp"], [padded]);
  });

  it("keeps a JPEG with an end-of-image marker inside a segment before its picture, and a progressive JPEG", async () => {
    const jpeg = await photos.jpeg();
    // A comment segment holding FF D9, as an EXIF thumbnail (itself a whole JPEG) would.
    const comment = Buffer.from([0xff, 0xfe, 0x00, 0x08, 0x61, 0xff, 0xd9, 0x62, 0xff, 0xd9]);
    const withMarker = Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]);
    const progressive = await sharp({
      create: { width: 900, height: 600, channels: 3, background: "#884422" },
    })
      .jpeg({ progressive: true })
      .toBuffer();
    const before = await storedUploads(shop);
    const res = await uploadAjax(shop, "nl", [
      { filename: "met-marker.jpg", data: withMarker },
      { filename: "progressief.jpg", data: progressive },
    ]);
    expect(res.statusCode).toBe(200);
    await expectOnlyKept(shop, before, ["met-marker.jpg", "progressief.jpg"]);
    expect((await storedOriginal(shop, "met-marker.jpg")).equals(withMarker)).toBe(true);
  });
});

describe("a photo that says where it was taken", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop();
  });
  afterAll(() => shop.close());

  it("is the finding's photo: GPS in its EXIF, the place in its XMP", async () => {
    const photo = await photos.located("jpeg");
    expect((await exifMainTags(photo)).gps).toBe(true);
    expect((await sharp(photo).metadata()).xmp?.toString()).toContain('exif:GPSLatitude="52,5.5N"');
  });

  it("a JPEG is stored without GPS or XMP location, its pixels, orientation, colour profile and capture date kept", async () => {
    const photo = await photos.located("jpeg");
    const res = await uploadAjax(shop, "nl", [{ filename: "thuis.jpg", data: photo }]);
    expect(res.statusCode).toBe(200);
    const stored = await storedOriginal(shop, "thuis.jpg");
    const main = await exifMainTags(stored);
    expect(main.gps).toBe(false);
    expect(main.tags.length).toBeGreaterThan(0);
    const meta = await sharp(stored).metadata();
    expect(meta.orientation).toBe(6);
    expect(meta.icc?.equals((await sharp(photo).metadata()).icc as Buffer)).toBe(true);
    expect(meta.exif?.includes("2026:06:01 12:34:56")).toBe(true);
    const xmp = meta.xmp?.toString() ?? "";
    expect(xmp).toContain("Familie de Vries");
    expect(xmp).not.toMatch(/GPS|Utrecht|52,5\.5N|4,53\.6E/);
    // Not re-encoded: the very same picture, and the very same size.
    expect(stored.length).toBe(photo.length);
    expect((await pixels(stored)).equals(await pixels(photo))).toBe(true);
    // Upright, as the orientation turns it: 900 wide, 1200 high.
    const row = await shop.database.db
      .selectFrom("uploads")
      .select(["width", "height"])
      .where("original_name", "=", "thuis.jpg")
      .executeTakeFirstOrThrow();
    expect([Number(row.width), Number(row.height)]).toEqual([900, 1200]);
    // The thumbnail is made upright and carries no metadata at all.
    const thumbnail = readFileSync(
      join(shop.config.dataDir, "uploads", "thumbnails", `${await storedId(shop, "thuis.jpg")}.jpg`),
    );
    const small = await sharp(thumbnail).metadata();
    expect([small.exif, small.xmp, small.orientation]).toEqual([undefined, undefined, undefined]);
  });

  it("an Ultra HDR JPEG is kept with its gain map, and GPS is taken out of every image in it", async () => {
    const primary = await photos.located("jpeg");
    const gainMap = await photos.located("jpeg");
    const ultraHdr = photos.withDeclaredSecondImage(primary, gainMap);
    expect((await exifMainTags(gainMap)).gps).toBe(true);
    const res = await uploadAjax(shop, "nl", [{ filename: "hdr.jpg", data: ultraHdr }]);
    expect(res.statusCode).toBe(200);
    const stored = await storedOriginal(shop, "hdr.jpg");
    expect(stored.length).toBe(ultraHdr.length);
    const storedGainMap = stored.subarray(stored.length - gainMap.length);
    expect((await exifMainTags(stored)).gps).toBe(false);
    expect((await exifMainTags(storedGainMap)).gps).toBe(false);
    expect((await pixels(storedGainMap)).equals(await pixels(gainMap))).toBe(true);
  });

  it("a PNG, a WebP and an AVIF sent without JavaScript are stored without their location, and still read as they were", async () => {
    const png = await photos.located("png");
    const webp = await photos.located("webp");
    const avif = await photos.located("avif");
    for (const sent of [png, webp, avif]) expect((await exifMainTags(sent)).gps).toBe(true);
    const res = await startBookWith(new BrowserSession(shop.app), "nl", [
      { filename: "thuis.png", data: png, type: "image/png" },
      { filename: "thuis.webp", data: webp, type: "image/webp" },
      { filename: "thuis.avif", data: avif, type: "image/avif" },
    ]);
    expect(res.statusCode).toBe(303);
    for (const [name, sent] of [
      ["thuis.png", png],
      ["thuis.webp", webp],
      ["thuis.avif", avif],
    ] as const) {
      const stored = await storedOriginal(shop, name);
      expect((await exifMainTags(stored)).gps).toBe(false);
      const meta = await sharp(stored).metadata();
      // AVIF turns its picture with a box of its own (irot), which libvips does not report as EXIF's orientation.
      expect(meta.orientation).toBe(name.endsWith(".avif") ? (await sharp(sent).metadata()).orientation : 6);
      expect(meta.icc).toBeDefined();
      expect(meta.xmp?.toString() ?? "").not.toMatch(/GPS|Utrecht/);
      // Every checksum right: the stored file decodes without a warning, to the same pixels.
      const decoded = await sharp(stored, { failOn: "warning" }).raw().toBuffer();
      expect(decoded.equals(await pixels(sent))).toBe(true);
    }
  });
});
