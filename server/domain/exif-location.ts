/**
 * The GPS part of a photo's EXIF, found and removed in place. EXIF is a TIFF structure:
 * a header saying the byte order, then IFD0 (the main directory: orientation, camera,
 * date) whose GPSInfo entry points at a directory of its own with the coordinates. The
 * block keeps its length, so nothing around it (a JPEG segment's length, a PNG chunk's,
 * a HEIF item's place) has to change: the GPS directory and its values are zeroed and
 * IFD0 no longer points at it. Every other tag stays as it was, byte for byte.
 */

/** IFD0's entry pointing at the GPS directory. */
export const gpsInfoTag = 0x8825;

/** Bytes per value of each TIFF field type (1 BYTE … 12 DOUBLE, 13 IFD). */
const typeSizes: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
};

interface Tiff {
  bytes: Buffer;
  little: boolean;
}

const u16 = (t: Tiff, at: number) => (t.little ? t.bytes.readUInt16LE(at) : t.bytes.readUInt16BE(at));
const u32 = (t: Tiff, at: number) => (t.little ? t.bytes.readUInt32LE(at) : t.bytes.readUInt32BE(at));
const putU16 = (t: Tiff, at: number, value: number) =>
  t.little ? t.bytes.writeUInt16LE(value, at) : t.bytes.writeUInt16BE(value, at);

/** Where the TIFF header starts: EXIF blocks often begin with "Exif\0\0". */
export function tiffStart(exif: Buffer): number | undefined {
  const at = exif.subarray(0, 6).toString("latin1") === "Exif\0\0" ? 6 : 0;
  const order = exif.subarray(at, at + 4).toString("latin1");
  return order === "II*\0" || order === "MM\0*" ? at : undefined;
}

function readTiff(bytes: Buffer): Tiff | undefined {
  if (bytes.length < 8) return undefined;
  const order = bytes.toString("latin1", 0, 4);
  if (order !== "II*\0" && order !== "MM\0*") return undefined;
  return { bytes, little: order === "II*\0" };
}

/** IFD0's place and its entry count, when they lie within the block. */
function firstDirectory(t: Tiff): { at: number; count: number } | undefined {
  const at = u32(t, 4);
  if (at + 2 > t.bytes.length) return undefined;
  const count = u16(t, at);
  if (at + 2 + count * 12 + 4 > t.bytes.length) return undefined;
  return { at, count };
}

function gpsEntryIndex(t: Tiff, ifd: { at: number; count: number }): number {
  for (let i = 0; i < ifd.count; i++) {
    if (u16(t, ifd.at + 2 + i * 12) === gpsInfoTag) return i;
  }
  return -1;
}

/** Whether the EXIF block (with or without its "Exif\0\0" start) points at GPS data. */
export function exifHasGps(exif: Buffer): boolean {
  const start = tiffStart(exif);
  const t = start === undefined ? undefined : readTiff(exif.subarray(start));
  const ifd = t && firstDirectory(t);
  return !!t && !!ifd && gpsEntryIndex(t, ifd) >= 0;
}

/**
 * Removes the GPS directory from a TIFF block in place (the block starts at its byte-order
 * mark). Answers false when the block is not a TIFF structure this can read; true when no
 * GPS is left in it (there may have been none).
 */
export function removeGpsInPlace(tiffBytes: Buffer): boolean {
  const t = readTiff(tiffBytes);
  const ifd = t && firstDirectory(t);
  if (!t || !ifd) return false;
  const index = gpsEntryIndex(t, ifd);
  if (index < 0) return true;
  const entry = ifd.at + 2 + index * 12;
  const gps = u32(t, entry + 8);
  // The GPS directory and every value it keeps outside itself: zeroed.
  if (gps + 2 <= tiffBytes.length) {
    const count = u16(t, gps);
    const end = Math.min(tiffBytes.length, gps + 2 + count * 12 + 4);
    for (let i = 0; i < count && gps + 2 + i * 12 + 12 <= tiffBytes.length; i++) {
      const field = gps + 2 + i * 12;
      const size = (typeSizes[u16(t, field + 2)] ?? 1) * u32(t, field + 4);
      if (size > 4) {
        const value = u32(t, field + 8);
        if (value < tiffBytes.length) tiffBytes.fill(0, value, Math.min(tiffBytes.length, value + size));
      }
    }
    tiffBytes.fill(0, gps, end);
  }
  // IFD0 without the GPSInfo entry: the later entries and the next-directory offset move up
  // twelve bytes, and the twelve freed at the end are zero. No offset points into IFD0 itself.
  const tableEnd = ifd.at + 2 + ifd.count * 12 + 4;
  tiffBytes.copy(tiffBytes, entry, entry + 12, tableEnd);
  tiffBytes.fill(0, tableEnd - 12, tableEnd);
  putU16(t, ifd.at, ifd.count - 1);
  return true;
}
