// Renders the shop's icons from static/images/favicon.svg: the web app manifest's PNGs
// (192 and 512 px, and a maskable 512 px one whose camera sits inside the safe circle)
// and /favicon.ico (16, 32 and 48 px). The files are committed; run this again when the
// favicon changes:
//   node --import tsx scripts/generate-icons.ts
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const iconDir = resolve(projectRoot, "static/images/icons");

/** The favicon's colour behind everything: a maskable icon is cropped to any shape, so it fills the square. */
const background = "#1d4e89";

/**
 * The maskable icon: the favicon's drawing without its rounded corners, shrunk to 70 %
 * around the centre, so the camera stays inside the 80 % circle every mask keeps.
 */
function maskable(svg: string): string {
  const inner = svg
    .replace(/^<svg[^>]*>/, "")
    .replace(/<\/svg>\s*$/, "")
    .replace(/<rect width="32" height="32"[^>]*\/>/, "");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/><g transform="translate(16 16) scale(0.7) translate(-16 -16)">${inner}</g></svg>`;
}

const png = (svg: string, size: number) =>
  sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();

/** An ICO file (the format's own header and directory) holding PNG images, as browsers since 2007 read it. */
export function icoFile(images: Array<{ size: number; data: Buffer }>): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1: icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0); // width (0 means 256)
    entry.writeUInt8(size >= 256 ? 0 : size, 1); // height
    entry.writeUInt8(0, 2); // no palette
    entry.writeUInt8(0, 3); // reserved
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((i) => i.data)]);
}

const svg = await readFile(resolve(projectRoot, "static/images/favicon.svg"), "utf8");
await writeFile(resolve(iconDir, "icon-192.png"), await png(svg, 192));
await writeFile(resolve(iconDir, "icon-512.png"), await png(svg, 512));
await writeFile(resolve(iconDir, "icon-maskable-512.png"), await png(maskable(svg), 512));
const small = await Promise.all([16, 32, 48].map(async (size) => ({ size, data: await png(svg, size) })));
await writeFile(resolve(iconDir, "favicon.ico"), icoFile(small));
console.log(`icons written to ${iconDir}`);
