import sharp from "sharp";
import { detectPhotoFormat, type PhotoFormat } from "../domain/photo-type.ts";

/** Why a file was refused; the route turns it into the shopper's words (editor.rejected.<reason>). */
export type RejectReason =
  | "empty"
  | "tooLarge"
  | "notPhoto"
  | "unreadable"
  | "heicUnsupported"
  | "tooSmall"
  | "projectFull"
  | "shopperFull"
  | "tooMany";

export type PreparedPhoto =
  | { ok: true; format: PhotoFormat; width: number; height: number; thumbnail: Buffer }
  | { ok: false; reason: RejectReason };

/** Smaller than this on its short side would print as a blur on a page. */
const minimumSide = 200;
export const thumbnailSide = 480;

/**
 * Checks that a file is a photo sharp can read and makes its thumbnail: the content's
 * magic bytes first, then sharp decodes it (a truncated or disguised file fails there).
 * The thumbnail is an upright JPEG at most 480 px on its long side.
 */
export async function preparePhoto(data: Buffer): Promise<PreparedPhoto> {
  if (data.length === 0) return { ok: false, reason: "empty" };
  const format = detectPhotoFormat(data);
  if (!format) return { ok: false, reason: "notPhoto" };
  try {
    const meta = await sharp(data, { failOn: "error" }).metadata();
    if (!meta.width || !meta.height) return { ok: false, reason: "unreadable" };
    // EXIF orientations 5-8 turn the picture a quarter: its upright size swaps.
    const turned = (meta.orientation ?? 1) >= 5;
    const width = turned ? meta.height : meta.width;
    const height = turned ? meta.width : meta.height;
    if (Math.min(width, height) < minimumSide) return { ok: false, reason: "tooSmall" };
    const thumbnail = await sharp(data, { failOn: "error" })
      .rotate()
      .resize({ width: thumbnailSide, height: thumbnailSide, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
    return { ok: true, format, width, height, thumbnail };
  } catch {
    // sharp's prebuilt libvips reads AVIF but not HEVC-coded HEIC: say so, rather than "broken".
    return { ok: false, reason: format === "heic" ? "heicUnsupported" : "unreadable" };
  }
}
