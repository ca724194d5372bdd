import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** Maps source names (site.css, boot.js) to the hashed files that `npm run build` wrote. */
export type AssetManifest = Record<string, string>;

export function loadManifest(staticDir: string): AssetManifest {
  const file = resolve(staticDir, "build", "manifest.json");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as AssetManifest;
  } catch {
    throw new Error(`${file} is missing or unreadable: run "npm run build" first`);
  }
}

export function assetResolver(load: () => AssetManifest, reloadEachTime: boolean) {
  let manifest = load();
  return (name: string): string => {
    if (reloadEachTime) manifest = load();
    const url = manifest[name];
    if (!url) throw new Error(`asset "${name}" is not in the build manifest`);
    return url;
  };
}
