// Development: rebuild assets on change, restart the server on code change; templates reload on their own.
import { spawn, spawnSync } from "node:child_process";
import * as esbuild from "esbuild";
import { cleanOutdir, esbuildOptions, root, writeManifest } from "./build-config.mjs";

process.chdir(root);
cleanOutdir();
// The 360 viewer's frames, once (skipped when current); the build does the same.
const frames = spawnSync(process.execPath, ["--import", "tsx", "scripts/generate-360-frames.ts"], {
  stdio: "inherit",
});
if (frames.status !== 0) process.exit(frames.status ?? 1);
const manifestPlugin = {
  name: "manifest",
  setup(build) {
    build.onEnd((result) => {
      if (result.metafile) writeManifest(result.metafile);
    });
  },
};
const context = await esbuild.context({
  ...esbuildOptions({ production: false }),
  plugins: [...esbuildOptions({ production: false }).plugins, manifestPlugin],
});
await context.rebuild();
await context.watch();

const server = spawn(
  process.execPath,
  [
    "--watch-path=server",
    "--watch-path=locales",
    "--watch-path=content",
    "--import",
    "tsx",
    "server/main.ts",
  ],
  { stdio: "inherit", env: { ...process.env, NODE_ENV: "development" } },
);
const stop = async () => {
  server.kill("SIGTERM");
  await context.dispose();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));
