import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";

export const root = resolve(import.meta.dirname, "..");
export const outdir = resolve(root, "static/build");

/** Entry points by the name templates use through the manifest (it.asset("boot.js")). */
export const entries = {
  site: resolve(root, "static/css/site.css"),
  boot: resolve(root, "islands/boot.ts"),
};

export function esbuildOptions({ production }) {
  return {
    entryPoints: entries,
    bundle: true,
    outdir,
    // ES modules with code splitting: every dynamic import in islands/registry.ts
    // becomes its own chunk, and code two islands share (React) becomes one chunk.
    format: "esm",
    splitting: true,
    target: ["es2022", "chrome111", "firefox111", "safari16.4"],
    entryNames: "[name]-[hash]",
    chunkNames: "chunks/[name]-[hash]",
    assetNames: "[name]-[hash]",
    minify: production,
    sourcemap: production ? false : "linked",
    metafile: true,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": JSON.stringify(production ? "production" : "development") },
    logLevel: "warning",
    // Images and fonts referenced from CSS live in static/ and are served as they are.
    external: ["/static/*"],
  };
}

export function cleanOutdir() {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
}

/** manifest.json: "site.css" -> "/static/build/site-HASH.css", read by the server at start-up. */
export function writeManifest(metafile) {
  const manifest = {};
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!output.entryPoint || file.endsWith(".map")) continue;
    const ext = file.slice(file.lastIndexOf("."));
    const name = Object.entries(entries).find(([, path]) => relative(root, path) === output.entryPoint)?.[0];
    if (name) manifest[`${name}${ext}`] = `/${relative(root, resolve(root, file)).replaceAll("\\", "/")}`;
  }
  writeFileSync(resolve(outdir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
