import { describe, expect, it } from "vitest";
import { exifHasGps, removeGpsInPlace, tiffStart } from "../../../server/domain/exif-location.ts";
import { blankXmpLocationInPlace, xmpHasLocation } from "../../../server/domain/xmp-location.ts";

/** A TIFF block: IFD0 with Orientation, GPSInfo and Copyright; a GPS directory with a latitude. */
function tiff(little: boolean): Buffer {
  const b = Buffer.alloc(200);
  const u16 = (at: number, v: number) => (little ? b.writeUInt16LE(v, at) : b.writeUInt16BE(v, at));
  const u32 = (at: number, v: number) => (little ? b.writeUInt32LE(v, at) : b.writeUInt32BE(v, at));
  b.write(little ? "II" : "MM", 0, "latin1");
  u16(2, 42);
  u32(4, 8);
  u16(8, 3);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    u16(at, tag);
    u16(at + 2, type);
    u32(at + 4, count);
    if (type === 3 && count === 1) u16(at + 8, value);
    else u32(at + 8, value);
  };
  entry(10, 0x0112, 3, 1, 6); // Orientation
  entry(22, 0x8825, 4, 1, 60); // GPSInfo → 60
  entry(34, 0x8298, 2, 4, 0x00434241); // Copyright "ABC\0", inline
  u32(46, 0); // no next directory
  u16(60, 1);
  entry(62, 0x0002, 5, 3, 100); // GPSLatitude: three rationals at 100
  for (let i = 0; i < 6; i++) u32(100 + i * 4, [52, 1, 5, 1, 3000, 100][i] as number);
  return b;
}

describe("GPS removed from EXIF in place", () => {
  for (const little of [true, false]) {
    it(`leaves ${little ? "little" : "big"}-endian IFD0 without GPSInfo, the other tags and the length as they were`, () => {
      const block = tiff(little);
      const exif = Buffer.concat([Buffer.from("Exif\0\0", "latin1"), block]);
      expect(tiffStart(exif)).toBe(6);
      expect(exifHasGps(exif)).toBe(true);
      expect(removeGpsInPlace(exif.subarray(6))).toBe(true);
      expect(exif.length).toBe(206);
      expect(exifHasGps(exif)).toBe(false);
      const t = exif.subarray(6);
      const u16 = (at: number) => (little ? t.readUInt16LE(at) : t.readUInt16BE(at));
      expect(u16(8)).toBe(2);
      expect([u16(10), u16(22)]).toEqual([0x0112, 0x8298]);
      expect(t.toString("latin1", 30, 33)).toBe(little ? "ABC" : "\0CB");
      // The coordinates themselves are gone from the bytes, not only unreferenced.
      expect(t.subarray(60, 130).every((byte) => byte === 0)).toBe(true);
    });
  }

  it("says so for a block that is no TIFF, and leaves one without GPS alone", () => {
    expect(removeGpsInPlace(Buffer.from("not a tiff block"))).toBe(false);
    const block = tiff(true);
    removeGpsInPlace(block);
    const again = Buffer.from(block);
    expect(removeGpsInPlace(again)).toBe(true);
    expect(again.equals(block)).toBe(true);
  });
});

describe("a place in XMP blanked in place", () => {
  it("blanks GPS attributes, GPS elements and the city, keeping the length and everything else", () => {
    const xmp = Buffer.from(
      '<rdf:Description exif:GPSLatitude="52,5.5N" photoshop:City=\'Utrecht\' dc:format="image/jpeg"><exif:GPSLongitude>4,53.6E</exif:GPSLongitude><dc:title>Zomer</dc:title></rdf:Description>',
      "latin1",
    );
    const length = xmp.length;
    expect(xmpHasLocation(xmp)).toBe(true);
    expect(blankXmpLocationInPlace(xmp)).toBe(true);
    expect(xmp.length).toBe(length);
    const text = xmp.toString("latin1");
    expect(text).not.toMatch(/GPS|Utrecht|52,5|4,53/);
    expect(text.replace(/\s+/g, " ")).toBe(
      '<rdf:Description dc:format="image/jpeg"> <dc:title>Zomer</dc:title></rdf:Description>',
    );
    expect(xmpHasLocation(xmp)).toBe(false);
  });
});
