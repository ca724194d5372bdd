// `npm run compression-levels -- [URL]`: what each gzip and brotli level saves on one page
// against what it costs, to choose a level by measurement (docs/performance.md). Fetches the
// page from a running shop (`npm start`); the product page by default.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const url = process.argv[2] ?? "http://localhost:3000/assortiment/fotoboeken/exclusief-fotoboek";

function timed(compress: () => Buffer): { bytes: number; microseconds: number } {
  let bytes = 0;
  // Long enough for the clock to be reliable, short enough to wait for.
  const rounds = 200;
  for (let i = 0; i < 20; i++) compress();
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) bytes = compress().length;
  const elapsed = Number(process.hrtime.bigint() - start) / 1000 / rounds;
  return { bytes, microseconds: elapsed };
}

async function main(): Promise<void> {
  const response = await fetch(url, { headers: { "accept-encoding": "identity" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const page = Buffer.from(await response.arrayBuffer());
  console.log(`${url}: ${(page.length / 1024).toFixed(1)} kB of HTML\n`);
  const rows: string[][] = [["coding", "level", "kB", "saved", "µs per page"]];
  const add = (coding: string, level: number, compress: () => Buffer) => {
    const { bytes, microseconds } = timed(compress);
    const saved = `${(100 * (1 - bytes / page.length)).toFixed(1)}%`;
    rows.push([coding, String(level), (bytes / 1024).toFixed(2), saved, microseconds.toFixed(0)]);
  };
  for (const level of [1, 4, 6, 9]) add("gzip", level, () => gzipSync(page, { level }));
  for (const quality of [1, 4, 5, 6, 9, 11]) {
    add("brotli", quality, () =>
      brotliCompressSync(page, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: quality,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: page.length,
        },
      }),
    );
  }
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  for (const row of rows)
    console.log(row.map((cell, column) => cell.padStart(widths[column] ?? 0)).join("  "));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
