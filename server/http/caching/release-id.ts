import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * A name for what this instance renders pages from: its code, templates, texts, editors'
 * content and the build's manifest, hashed once at start-up. Two instances of one release
 * give the same name, so an ETag made by one is good on the other; any change to what a
 * page is made of gives a new one. Part of every ETag (pages.ts).
 */
export function releaseId(projectRoot: string): string {
  // Once per process: files do not change under a running production instance (development
  // keeps no pages, so makes no ETags).
  let id = known.get(projectRoot);
  if (id === undefined) {
    id = hashRelease(projectRoot);
    known.set(projectRoot, id);
  }
  return id;
}
const known = new Map<string, string>();

function hashRelease(projectRoot: string, folders = ["server", "views", "locales", "content"]): string {
  const hash = createHash("sha256");
  const add = (file: string) => {
    hash.update(relative(projectRoot, file));
    hash.update(readFileSync(file));
  };
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) add(path);
    }
  };
  for (const folder of folders) walk(join(projectRoot, folder));
  try {
    add(join(projectRoot, "static", "build", "manifest.json"));
  } catch {
    // No build yet (some tests): the rest still names the release.
  }
  return hash.digest("base64url").slice(0, 16);
}
