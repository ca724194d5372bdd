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
const app2 = 0xe2;

/** A marker segment of a JPEG: its marker and its data (after the length field). */
export interface JpegSegment {
  marker: number;
  data: Buffer;
}

/**
 * Walks one JPEG from `start`: marker segments, each with its length, and after each
 * start-of-scan the entropy-coded data, which ends at the first 0xFF not followed by 0x00
 * (a stuffed byte) or a restart marker. The image ends at the end-of-image marker met this
 * way; an 0xFFD9 inside a segment (an EXIF thumbnail is a whole JPEG) is skipped with its
 * segment. Answers where it ends and its segments, or undefined when it has no end.
 */
function walkJpeg(bytes: Buffer, start: number): { end: number; segments: JpegSegment[] } | undefined {
  if (bytes[start] !== 0xff || bytes[start + 1] !== 0xd8) return undefined;
  const segments: JpegSegment[] = [];
  let at = start + 2;
  for (;;) {
    if (bytes[at] !== 0xff) return undefined;
    // Any number of 0xFF may pad the space before a marker.
    while (bytes[at] === 0xff) at += 1;
    if (at >= bytes.length) return undefined;
    const marker = bytes[at] as number;
    at += 1;
    if (marker === endOfImage) return { end: at, segments };
    if (standalone(marker)) continue;
    if (at + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(at);
    if (length < 2 || at + length > bytes.length) return undefined;
    segments.push({ marker, data: bytes.subarray(at + 2, at + length) });
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

const mpfStart = Buffer.from("MPF\0", "latin1");
/** The MP index's entry listing every image: 16 bytes each (attributes, size, offset, two dependencies). */
const mpEntryTag = 0xb002;

/**
 * The images after the first that the first one's MPF index declares (the gain map of an
 * "Ultra HDR" photo, the other half of a stereo pair): where each starts and how long it is.
 * Offsets count from the index's TIFF header.
 */
function declaredImages(bytes: Buffer, segments: JpegSegment[]): Array<{ start: number; size: number }> {
  const mpf = segments.find((s) => s.marker === app2 && s.data.subarray(0, 4).equals(mpfStart))?.data;
  if (!mpf || mpf.length < 12) return [];
  const tiff = mpf.subarray(4);
  const base = tiff.byteOffset - bytes.byteOffset;
  const little = tiff.toString("latin1", 0, 2) === "II";
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return [];
  const count = u16(ifd);
  for (let i = 0; i < count && ifd + 2 + i * 12 + 12 <= tiff.length; i++) {
    const entry = ifd + 2 + i * 12;
    if (u16(entry) !== mpEntryTag) continue;
    const length = u32(entry + 4);
    const at = u32(entry + 8);
    if (at + length > tiff.length) return [];
    const images: Array<{ start: number; size: number }> = [];
    // The first entry is the primary image itself (offset 0).
    for (let e = 16; e + 16 <= length; e += 16) {
      images.push({ start: base + u32(at + e + 8), size: u32(at + e + 4) });
    }
    return images.sort((a, b) => a.start - b.start);
  }
  return [];
}

/**
 * The images of a JPEG file, first to last: the primary, then each one its MPF index
 * declares that follows on directly and is a whole JPEG of exactly the declared size.
 */
export function jpegImages(
  bytes: Buffer,
): Array<{ start: number; end: number; segments: JpegSegment[] }> | undefined {
  const primary = walkJpeg(bytes, 0);
  if (!primary) return undefined;
  const images = [{ start: 0, ...primary }];
  let end = primary.end;
  for (const declared of declaredImages(bytes, primary.segments)) {
    if (declared.start !== end) break;
    const image = walkJpeg(bytes, declared.start);
    if (!image || image.end !== declared.start + declared.size) break;
    images.push({ start: declared.start, ...image });
    end = image.end;
  }
  return images;
}

function jpegExtent(bytes: Buffer): number | undefined {
  return jpegImages(bytes)?.at(-1)?.end;
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
