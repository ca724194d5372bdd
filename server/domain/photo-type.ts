/**
 * What a file is, read from its first bytes (its "magic number"), never from its name
 * or the type the browser claimed: a renamed document stays a document.
 */
export type PhotoFormat = "jpeg" | "png" | "webp" | "heic" | "avif";

/** Brands in an ISO-BMFF "ftyp" box that mark HEIF images: HEVC-coded (HEIC) and AV1-coded (AVIF). */
const heicBrands = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]);
const avifBrands = new Set(["avif", "avis"]);
/**
 * How far into the ftyp box the brands are read. Real files list a handful of brands
 * (tens of bytes); the box's size is the sender's claim, and a claim of gigabytes must
 * not make us read a whole 25 MB upload four bytes at a time.
 */
export const maxFtypBytes = 1024;

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));

export function detectPhotoFormat(bytes: Uint8Array): PhotoFormat | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (
    bytes.length >= 8 &&
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => bytes[i] === byte)
  ) {
    return "png";
  }
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WEBP") return "webp";
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === "ftyp") {
    // The major brand, then the compatible brands up to the end of the ftyp box.
    const boxSize =
      (((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)) >>> 0;
    const end = Math.min(bytes.length, Math.max(16, boxSize), maxFtypBytes);
    const brands = [ascii(bytes, 8, 4)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, 4));
    if (brands.some((b) => avifBrands.has(b))) return "avif";
    if (brands.some((b) => heicBrands.has(b))) return "heic";
  }
  return undefined;
}

/** The input's accept attribute: a hint for the file picker, never a check. */
export const acceptedPhotoTypes =
  "image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif,.heic,.heif";
