import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

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
    plugins: [browserContracts({ production }), namedMedia, copiedPerImporter],
  };
}

/**
 * An island's contract (islands/<hook>/contract.ts) is declared with zod, which is far too
 * big for the browser. For the browser bundle each contract module is run here, at build
 * time, and replaced by the compact shape defineHook() computed from it: the runtime's
 * check needs only that.
 */
export const browserContracts = ({ production }) => ({
  name: "browser-contracts",
  setup(build) {
    // Production pages skip the check: each hook's shape and the checker would add about
    // 0.1 kB a hook to every page, and the template check has already rendered every
    // page and example against the same contracts. A mount that throws is still caught.
    if (production) {
      build.onLoad({ filter: /[\\/]islands[\\/][^\\/]+[\\/]contract\.ts$/ }, () => ({
        contents: "export const contract = undefined;\n",
        loader: "js",
      }));
      return;
    }
    const cache = resolve(root, "node_modules/.cache/browser-contracts");
    build.onLoad({ filter: /[\\/]islands[\\/][^\\/]+[\\/]contract\.ts$/ }, async (args) => {
      mkdirSync(cache, { recursive: true });
      const hook = relative(resolve(root, "islands"), args.path).split(/[\\/]/)[0];
      const outfile = resolve(cache, `${hook}-${Date.now()}-${Math.random().toString(36).slice(2)}.mjs`);
      const result = await esbuild.build({
        entryPoints: [args.path],
        bundle: true,
        platform: "node",
        format: "esm",
        packages: "external",
        outfile,
        metafile: true,
        logLevel: "silent",
      });
      try {
        const { contract } = await import(pathToFileURL(outfile).href);
        if (!contract?.browser)
          throw new Error(`${relative(root, args.path)} must export contract = defineHook({...})`);
        return {
          contents:
            `import { contractProblem } from ${JSON.stringify(resolve(root, "islands/runtime/contract-check.ts"))};\n` +
            `const browser = ${JSON.stringify(contract.browser)};\n` +
            "export const contract = { browser, problem: (element) => contractProblem(browser, element) };\n",
          loader: "js",
          resolveDir: root,
          watchFiles: Object.keys(result.metafile.inputs).map((input) => resolve(root, input)),
        };
      } finally {
        rmSync(outfile, { force: true });
      }
    });
  },
});

/**
 * Style sheets name the shop's screen widths (`@media (--desktop)`); the widths themselves
 * live once, in server/domain/breakpoints.ts, which the islands and the server read too;
 * server/domain/custom-media.ts fills them in.
 */
export const namedMedia = {
  name: "named-media",
  setup(build) {
    let fill;
    build.onStart(async () => {
      const { outputFiles } = await esbuild.build({
        entryPoints: [resolve(root, "server/domain/custom-media.ts")],
        bundle: true,
        format: "esm",
        write: false,
        logLevel: "silent",
      });
      const source = Buffer.from(outputFiles[0].contents).toString("base64");
      ({ fillCustomMedia: fill } = await import(`data:text/javascript;base64,${source}`));
    });
    build.onLoad({ filter: /\.css$/ }, (args) => {
      try {
        return {
          contents: fill(readFileSync(args.path, "utf8"), relative(root, args.path)),
          loader: "css",
          watchFiles: ["custom-media.ts", "breakpoints.ts"].map((file) =>
            resolve(root, "server/domain", file),
          ),
        };
      } catch (error) {
        return { errors: [{ text: error.message }] };
      }
    });
  },
};

/**
 * Modules of a few constants that several islands import, such as the screen widths: as a
 * shared chunk they would cost a page one more request and about 0.1 kB gzip, more than
 * the constants themselves. Each importer gets a copy of its own instead, of which the
 * bundler keeps only the constants that importer uses.
 */
const constantModules = [resolve(root, "server/domain/breakpoints.ts")];

export const copiedPerImporter = {
  name: "copied-per-importer",
  setup(build) {
    build.onResolve({ filter: /\.ts$/ }, (args) => {
      const path = resolve(args.resolveDir, args.path);
      if (!constantModules.includes(path)) return undefined;
      return { path: `${path}?from=${relative(root, args.importer)}`, namespace: "copied-per-importer" };
    });
    build.onLoad({ filter: /.*/, namespace: "copied-per-importer" }, (args) => {
      const path = args.path.slice(0, args.path.indexOf("?from="));
      return {
        contents: readFileSync(path, "utf8"),
        loader: "ts",
        resolveDir: dirname(path),
        watchFiles: [path],
      };
    });
  },
};

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
