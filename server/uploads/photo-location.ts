import { crc32 } from "node:zlib";
import sharp from "sharp";
import { exifHasGps, removeGpsInPlace, tiffStart } from "../domain/exif-location.ts";
import { jpegImages } from "../domain/photo-extent.ts";
import type { PhotoFormat } from "../domain/photo-type.ts";
import { blankXmpLocationInPlace, xmpHasLocation } from "../domain/xmp-location.ts";

/**
 * A photo as the shop stores it: without where it was taken. Phones write the GPS position
 * into EXIF (and editors into XMP); a family photo would carry the home's coordinates to
 * whoever ever reads the stored original. The pixels are not touched: the metadata is
 * edited in place, keeping its length (exif-location.ts, xmp-location.ts), so the original
 * keeps its quality, its colour profile, orientation and capture date byte for byte.
 *
 * libvips (through sharp) says which EXIF and XMP blocks the file has; each is found in the
 * file by its exact bytes and edited there (a PNG's XMP chunk, compressed, is left out
 * instead). Answers undefined when a location cannot be removed that way (XMP split over
 * several segments, say): such a photo is not stored.
 */
export async function withoutLocation(data: Buffer, format: PhotoFormat): Promise<Buffer | undefined> {
  try {
    return await removeLocation(data, format);
  } catch {
    // The photo decoded a moment ago; should its metadata not read now, it is not stored.
    return undefined;
  }
}

async function removeLocation(data: Buffer, format: PhotoFormat): Promise<Buffer | undefined> {
  const found = await locationBlocks(data);
  const jpegGps = format === "jpeg" && jpegExifBlocks(data).some(exifHasGps);
  if (!found.exif && !found.xmp && !jpegGps) return data;
  // PNG keeps XMP in a text chunk, which libvips writes compressed: no bytes to edit in
  // place. A PNG's chunks carry no offsets to each other, so that chunk is left out whole.
  const edited = format === "png" && found.xmp ? pngWithoutXmp(data) : Buffer.from(data);
  if (format === "jpeg") {
    // Every EXIF segment of every image in the file, the ones libvips does not read included
    // (a second EXIF segment, the images an MPF index declares after the first).
    for (const tiff of jpegExifBlocks(edited)) if (!removeGpsInPlace(tiff)) return undefined;
  } else if (found.exif) {
    const start = tiffStart(found.exif) ?? 0;
    if (!editEach(edited, found.exif.subarray(start), removeGpsInPlace)) return undefined;
  }
  if (found.xmp && format !== "png" && !editEach(edited, found.xmp, blankXmpLocationInPlace))
    return undefined;
  if (format === "png") recomputePngChecksums(edited);
  // Read again, as anyone reading the stored file would: nothing of the place may be left.
  const left = await locationBlocks(edited);
  if (left.exif || left.xmp) return undefined;
  return format === "jpeg" && jpegExifBlocks(edited).some(exifHasGps) ? undefined : edited;
}

const exifStart = Buffer.from("Exif\0\0", "latin1");
const app1 = 0xe1;

/** The TIFF blocks of a JPEG's APP1 EXIF segments, in every image of the file, as views into it. */
function jpegExifBlocks(jpeg: Buffer): Buffer[] {
  return (jpegImages(jpeg) ?? []).flatMap((image) =>
    image.segments
      .filter((s) => s.marker === app1 && s.data.subarray(0, 6).equals(exifStart))
      .map((s) => s.data.subarray(6)),
  );
}

/** The file's EXIF and XMP blocks that name a place, as libvips reads them. */
async function locationBlocks(data: Buffer): Promise<{ exif?: Buffer; xmp?: Buffer }> {
  const meta = await sharp(data, { limitInputPixels: false }).metadata();
  return {
    ...(meta.exif && exifHasGps(meta.exif) ? { exif: meta.exif } : {}),
    ...(meta.xmp && xmpHasLocation(meta.xmp) ? { xmp: meta.xmp } : {}),
  };
}

/** Edits every copy of `block` in `file` in place; false when there is none, or an edit failed. */
function editEach(file: Buffer, block: Buffer, edit: (bytes: Buffer) => boolean): boolean {
  if (block.length === 0) return false;
  const needle = Buffer.from(block);
  let found = false;
  for (let at = file.indexOf(needle); at >= 0; at = file.indexOf(needle, at + needle.length)) {
    if (!edit(file.subarray(at, at + needle.length))) return false;
    found = true;
  }
  return found;
}

/** The text chunks XMP travels in, named by their keyword. */
const pngTextChunks = new Set(["tEXt", "zTXt", "iTXt"]);
const xmpKeyword = Buffer.from("XML:com.adobe.xmp\0", "latin1");

/** A copy of the PNG without its XMP text chunks. */
function pngWithoutXmp(png: Buffer): Buffer {
  const kept: Buffer[] = [png.subarray(0, 8)];
  let at = 8;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const end = Math.min(png.length, at + 12 + length);
    const type = png.toString("latin1", at + 4, at + 8);
    const isXmp =
      pngTextChunks.has(type) && png.subarray(at + 8, at + 8 + xmpKeyword.length).equals(xmpKeyword);
    if (!isXmp) kept.push(png.subarray(at, end));
    at = end;
  }
  return Buffer.concat(kept);
}

/** Each PNG chunk ends with a CRC of its type and data: an edited chunk needs its own again. */
function recomputePngChecksums(png: Buffer): void {
  let at = 8;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > png.length) return;
    png.writeUInt32BE(crc32(png.subarray(at + 4, at + 8 + length)), at + 8 + length);
    if (png.toString("latin1", at + 4, at + 8) === "IEND") return;
    at = end;
  }
}
