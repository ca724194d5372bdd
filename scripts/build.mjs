// Production build: hashed, minified files and the manifest the server reads.
import { spawnSync } from "node:child_process";
import * as esbuild from "esbuild";
import { cleanOutdir, esbuildOptions, root, writeManifest } from "./build-config.mjs";

process.chdir(root);
cleanOutdir();
const result = await esbuild.build(esbuildOptions({ production: true }));
const manifest = writeManifest(result.metafile);
console.log(`built ${Object.keys(manifest).length} entries into static/build`);

// The 360 viewer's frames are build output too; the generator skips itself when they are current.
const frames = spawnSync(process.execPath, ["--import", "tsx", "scripts/generate-360-frames.ts"], {
  stdio: "inherit",
});
if (frames.status !== 0) {
  console.error("generating the 360 frames failed");
  process.exit(frames.status ?? 1);
}
