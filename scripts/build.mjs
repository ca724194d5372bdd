// Production build: hashed, minified files and the manifest the server reads.
import * as esbuild from "esbuild";
import { cleanOutdir, esbuildOptions, root, writeManifest } from "./build-config.mjs";

process.chdir(root);
cleanOutdir();
const result = await esbuild.build(esbuildOptions({ production: true }));
const manifest = writeManifest(result.metafile);
console.log(`built ${Object.keys(manifest).length} entries into static/build`);
