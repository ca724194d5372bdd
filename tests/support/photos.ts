import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import type { LightMyRequestResponse } from "fastify";
import sharp from "sharp";
import { expect } from "vitest";
import type { TestShop } from "./app.ts";
import type { BrowserSession } from "./browser-session.ts";

/**
 * A PNG that declares side × side pixels, black and white at one bit a pixel, whose
 * content is one deflate stream of zeros: 16000 × 16000 comes to about 31 KB, yet
 * decoding it means a quarter of a gigapixel.
 */
function pngBomb(side: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth; colour type 0 (grey), no interlace
  // Each row: a filter byte and side / 8 bytes of black.
  const rows = Buffer.alloc((Math.ceil(side / 8) + 1) * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** XMP as a photo editor writes it, with the place the photo was taken. */
const xmpWithPlace = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" exif:GPSLatitude="52,5.5N" photoshop:City="Utrecht"><exif:GPSLongitude>4,53.6E</exif:GPSLongitude><dc:creator><rdf:Seq><rdf:li>Familie de Vries</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`;

/** The coordinates the located photos carry, as EXIF's GPS rationals write them. */
export const homeCoordinates = { latitude: "52/1 5/1 3000/100", longitude: "4/1 53/1 3600/100" };

/**
 * A family photo as a phone writes it: the home's GPS position in EXIF and in XMP, next to
 * what the shop keeps: turned a quarter (orientation 6), a Display P3 colour profile and
 * the moment it was taken.
 */
function locatedPhoto(format: "jpeg" | "png" | "webp" | "avif") {
  return sharp({ create: { width: 1200, height: 900, channels: 3, background: "#3a7bd5" } })
    .withExif({
      IFD0: { Copyright: "Familie de Vries" },
      IFD2: { DateTimeOriginal: "2026:06:01 12:34:56" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: homeCoordinates.latitude,
        GPSLongitudeRef: "E",
        GPSLongitude: homeCoordinates.longitude,
      },
    })
    .withMetadata({ orientation: 6 })
    .withIccProfile("p3")
    .withXmp(xmpWithPlace)
    [format]()
    .toBuffer();
}

/** EXIF's GPSInfo tag: IFD0's pointer at the GPS directory. */
const gpsInfoTag = 0x8825;

/**
 * The tags in a file's IFD0, read from the EXIF block libvips finds in it: what any EXIF
 * reader sees first, GPSInfo included when the file says where it was taken.
 */
export async function exifMainTags(file: Buffer): Promise<{ tags: number[]; gps: boolean }> {
  const exif = (await sharp(file).metadata()).exif;
  if (!exif) return { tags: [], gps: false };
  const tiff = exif.subarray(0, 6).toString("latin1") === "Exif\0\0" ? exif.subarray(6) : exif;
  const little = tiff.toString("latin1", 0, 2) === "II";
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  const tags = Array.from({ length: u16(ifd) }, (_, i) => u16(ifd + 2 + i * 12));
  return { tags, gps: tags.includes(gpsInfoTag) };
}

/** Random bytes, the same for the same length: junk that compresses to nothing. */
function junk(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let seed = 0x2545f491;
  for (let i = 0; i < length; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    bytes[i] = seed & 0xff;
  }
  return bytes;
}

/**
 * A JPEG with a second image after its end, declared in an MPF index (an APP2 segment), as
 * an "Ultra HDR" photo carries its gain map: the primary, then `second` directly after it.
 */
function withDeclaredSecondImage(primary: Buffer, second: Buffer): Buffer {
  // The index: "MPF\0", a big-endian TIFF header, one directory with the version, the number
  // of images and the entries (16 bytes each) right after the directory.
  const tiff = Buffer.alloc(8 + 2 + 3 * 12 + 4 + 32);
  tiff.write("MM\0*", 0, "latin1");
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(3, 8);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16BE(tag, at);
    tiff.writeUInt16BE(type, at + 2);
    tiff.writeUInt32BE(count, at + 4);
    tiff.writeUInt32BE(value, at + 8);
  };
  entry(10, 0xb000, 7, 4, 0x30313030); // MPFVersion "0100"
  entry(22, 0xb001, 4, 1, 2); // NumberOfImages
  const entries = 8 + 2 + 3 * 12 + 4;
  entry(34, 0xb002, 7, 32, entries); // MPEntry
  const segment = Buffer.concat([Buffer.from([0xff, 0xe2, 0, 0]), Buffer.from("MPF\0", "latin1"), tiff]);
  segment.writeUInt16BE(segment.length - 2, 2);
  const first = Buffer.concat([primary.subarray(0, 2), segment, primary.subarray(2)]);
  // Offsets count from the index's TIFF header: after SOI, the marker, the length and "MPF\0".
  const tiffAt = 2 + 4 + 4;
  tiff.writeUInt32BE(0x030000, entries); // the primary image
  tiff.writeUInt32BE(first.length, entries + 4);
  tiff.writeUInt32BE(second.length, entries + 16 + 4);
  tiff.writeUInt32BE(first.length - tiffAt, entries + 16 + 8);
  tiff.copy(first, tiffAt);
  return Buffer.concat([first, second]);
}

/** Real photos made on the spot (nothing binary in the repository), and files that only pretend. */
export const photos = {
  jpeg: (width = 1200, height = 900, colour = "#3a7bd5") =>
    sharp({ create: { width, height, channels: 3, background: colour } })
      .jpeg()
      .toBuffer(),
  png: (width = 900, height = 1200) =>
    sharp({ create: { width, height, channels: 4, background: "#e0a030" } })
      .png()
      .toBuffer(),
  webp: () =>
    sharp({ create: { width: 800, height: 800, channels: 3, background: "#2f5d3a" } })
      .webp()
      .toBuffer(),
  /** An image bomb: a few dozen kilobytes declaring side × side pixels. */
  pngBomb,
  /** A photo of noise, which no encoder can make small: about 0.37 MB at 700 × 700, 0.75 MB at 1000 × 1000. */
  noisyJpeg: (side = 1000) =>
    sharp({
      create: {
        width: side,
        height: side,
        channels: 3,
        background: "#808080",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer(),
  /** A photo with the home's coordinates in its EXIF and XMP (locatedPhoto). */
  located: locatedPhoto,
  /** A real photo with `bytes` of junk after its end: a decoder reads the photo and never sees the rest. */
  withJunkAfter: (photo: Buffer, bytes: number) => Buffer.concat([photo, junk(bytes)]),
  /** A JPEG followed by a second one its MPF index declares (withDeclaredSecondImage). */
  withDeclaredSecondImage,
  /** A text file with a photo's name. */
  textAsJpeg: async () => Buffer.from("Boodschappen: melk, brood, kaas\n"),
  /** The start of a JPEG and then nothing: right magic bytes, unreadable content. */
  truncatedJpeg: async () => (await photos.jpeg()).subarray(0, 120),
  /** An HEIF container with HEVC-coded content, as an iPhone writes: the box header only. */
  heicHeader: async () =>
    Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from("ftypheic"),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from("mif1heic"),
      Buffer.alloc(64),
    ]),
};

export interface Part {
  name: string;
  value?: string;
  file?: { filename: string; data: Buffer; type?: string };
}

/** A multipart/form-data body as a browser sends it, parts in the given order. */
export function multipart(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----shop-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if (part.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.file.filename}"\r\n` +
            `Content-Type: ${part.file.type ?? "application/octet-stream"}\r\n\r\n`,
        ),
        part.file.data,
        Buffer.from("\r\n"),
      );
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value ?? ""}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Starts a photo book (the exclusive one, portrait 21×30) with one photo, the way the form
 * without JavaScript does: format and file in one post. Answers the post's response (a 303
 * to the book's page).
 */
export async function startPhotoBook(
  browser: BrowserSession,
  filename = "strand.jpg",
): Promise<LightMyRequestResponse> {
  await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30");
  return browser.post(
    "/fotoboek-maken",
    multipart([
      { name: "_csrf", value: browser.token },
      { name: "product", value: "exclusive-photobook" },
      { name: "format", value: "portrait:21x30" },
      { name: "photos", file: { filename, data: await photos.jpeg(), type: "image/jpeg" } },
    ]),
  );
}

/**
 * One photo uploaded the way the enhanced uploader does it on the editor's start page (an
 * ajax post with the form token in a header), into the shopper's loose photos. Answers the
 * post's response.
 */
export async function uploadPhoto(
  browser: BrowserSession,
  filename = "strand.jpg",
): Promise<LightMyRequestResponse> {
  await browser.get("/fotoboek-maken?fotoboek=exclusief-fotoboek");
  return browser.post(
    "/fotoboek-maken/fotos",
    multipart([{ name: "photo", file: { filename, data: await photos.jpeg() } }]),
    { "x-requested-with": "XMLHttpRequest", "x-csrf-token": browser.token },
  );
}

/** What the shop keeps of uploads: rows and files (paths). A refused file must add to neither. */
export async function storedUploads(shop: TestShop) {
  const rows = await shop.database.db.selectFrom("uploads").select(["id", "original_name"]).execute();
  const folder = (name: string) => {
    const dir = join(shop.config.dataDir, "uploads", name);
    return existsSync(dir) ? readdirSync(dir).map((f) => join(dir, f)) : [];
  };
  return { rows, originals: folder("originals"), thumbnails: folder("thumbnails") };
}

/**
 * Checks that nothing but `kept` more photos were stored since `before` (rows, originals and
 * thumbnails, no half-written file), and that no stored original is one of the refused files.
 */
export async function expectOnlyKept(
  shop: TestShop,
  before: Awaited<ReturnType<typeof storedUploads>>,
  kept: string[],
  refused: Buffer[] = [],
) {
  const after = await storedUploads(shop);
  const added = after.rows.filter((r) => !before.rows.some((b) => b.id === r.id));
  expect(added.map((r) => r.original_name).sort()).toEqual([...kept].sort());
  expect(after.originals.length).toBe(before.originals.length + kept.length);
  expect(after.thumbnails.length).toBe(before.thumbnails.length + kept.length);
  expect([...after.originals, ...after.thumbnails].filter((f) => f.endsWith(".partial"))).toEqual([]);
  for (const file of after.originals) {
    const data = readFileSync(file);
    for (const r of refused) expect(data.equals(r)).toBe(false);
  }
}

/** Starts a photo book without JavaScript (the exclusive one, portrait 21×30), the files sent with the form. */
export async function startBookWith(browser: BrowserSession, locale: "nl" | "de", files: Part["file"][]) {
  const start = locale === "nl" ? "/fotoboek-maken" : "/fotobuch-gestalten";
  await browser.get(
    `${start}?${locale === "nl" ? "fotoboek=exclusief-fotoboek" : "fotobuch=exklusives-fotobuch"}`,
  );
  return browser.post(
    start,
    multipart([
      { name: "_csrf", value: browser.token },
      { name: "product", value: "exclusive-photobook" },
      { name: "format", value: "portrait:21x30" },
      ...files.map((file) => ({ name: "photos", file })),
    ]),
  );
}
