import type { PhotoFormat } from "./photo-type.ts";

/**
 * How many bytes of a file the image itself takes, read from the format's own structure:
 * anything after that is not part of the photo (a decoder stops before it, so it would be
 * stored unseen). Undefined when the structure cannot be followed to its end: a truncated
 * or damaged file.
 */
export function photoExtent(bytes: Buffer, format: PhotoFormat): number | undefined {
  switch (format) {
    case "jpeg":
      return jpegExtent(bytes);
    case "png":
      return pngExtent(bytes);
    case "webp":
      return webpExtent(bytes);
    case "heic":
    case "avif":
      return isoBoxesExtent(bytes);
  }
}

/** RST0-RST7 and TEM stand alone: no length follows them. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
const startOfScan = 0xda;
const endOfImage = 0xd9;

/**
 * A JPEG is marker segments, each with its length, and after each start-of-scan the
 * entropy-coded data, which ends at the first 0xFF not followed by 0x00 (a stuffed byte)
 * or a restart marker. The image ends at the end-of-image marker met this way; an 0xFFD9
 * inside a segment (an EXIF thumbnail is a whole JPEG) is skipped with its segment.
 */
function jpegExtent(bytes: Buffer): number | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  for (;;) {
    if (bytes[at] !== 0xff) return undefined;
    // Any number of 0xFF may pad the space before a marker.
    while (bytes[at] === 0xff) at += 1;
    if (at >= bytes.length) return undefined;
    const marker = bytes[at] as number;
    at += 1;
    if (marker === endOfImage) return at;
    if (standalone(marker)) continue;
    if (at + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(at);
    if (length < 2 || at + length > bytes.length) return undefined;
    at += length;
    if (marker !== startOfScan) continue;
    // The scan's data: on to the next 0xFF that starts a marker.
    for (;;) {
      const ff = bytes.indexOf(0xff, at);
      if (ff < 0 || ff + 1 >= bytes.length) return undefined;
      const next = bytes[ff + 1] as number;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
        at = ff + 2;
        continue;
      }
      at = ff;
      break;
    }
  }
}

const pngSignatureLength = 8;

/** A PNG is chunks (length, type, data, CRC) after its signature, the last one IEND. */
function pngExtent(bytes: Buffer): number | undefined {
  let at = pngSignatureLength;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    const end = at + 12 + length;
    if (end > bytes.length) return undefined;
    if (type === "IEND") return end;
    at = end;
  }
  return undefined;
}

/** A WebP is one RIFF chunk: its size field says where it ends (padded to an even length). */
function webpExtent(bytes: Buffer): number | undefined {
  if (bytes.length < 12) return undefined;
  const size = bytes.readUInt32LE(4);
  const end = 8 + size + (size % 2);
  return end <= bytes.length ? end : undefined;
}

/** Box types are four printable ASCII characters ("ftyp", "meta", "mdat", "free", …). */
const boxType = /^[\x20-\x7e]{4}$/;

/**
 * HEIC and AVIF are ISO-BMFF files: top-level boxes one after another, each with its size
 * (64 bits when the 32-bit size is 1; 0 means "to the end of the file"). The image ends
 * after the last box that is really one; bytes that do not read as a box are not the image.
 */
function isoBoxesExtent(bytes: Buffer): number | undefined {
  let at = 0;
  while (at + 8 <= bytes.length) {
    const size32 = bytes.readUInt32BE(at);
    const type = bytes.toString("latin1", at + 4, at + 8);
    if (!boxType.test(type)) return at > 0 ? at : undefined;
    let size: number;
    if (size32 === 1) {
      if (at + 16 > bytes.length) return undefined;
      size = Number(bytes.readBigUInt64BE(at + 8));
      if (size < 16) return undefined;
    } else if (size32 === 0) {
      size = bytes.length - at;
    } else {
      size = size32;
      if (size < 8) return undefined;
    }
    if (at + size > bytes.length) return undefined;
    at += size;
  }
  return at > 0 ? at : undefined;
}
