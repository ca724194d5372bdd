import { crc32, deflateSync } from "node:zlib";
import type { LightMyRequestResponse } from "fastify";
import sharp from "sharp";
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
