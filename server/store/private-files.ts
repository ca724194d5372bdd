import { chmodSync, mkdirSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";

/**
 * Modes for everything the shop keeps on disk: the database, mails and shoppers' photos
 * hold personal data, so only the shop's own user may read them. Each mode is set with
 * chmod as well as at creation: the mode given at creation passes through the process
 * umask, and an inherited umask is not something to count on.
 */
export const privateFileMode = 0o600;
export const privateFolderMode = 0o700;

/** The folders mkdir -p made: from the first it created down to the one asked for. */
function createdFolders(first: string | undefined, target: string): string[] {
  if (first === undefined) return [];
  const below = relative(first, target);
  const folders = [first];
  for (const part of below === "" ? [] : below.split(sep)) folders.push(join(folders.at(-1) ?? first, part));
  return folders;
}

/** Creates a folder and any missing parents 0700. A folder that exists already is left as it is. */
export async function makePrivateFolder(path: string): Promise<void> {
  const first = await mkdir(path, { recursive: true, mode: privateFolderMode });
  for (const folder of createdFolders(first, path)) await chmod(folder, privateFolderMode);
}

/** makePrivateFolder, for start-up code that runs before anything is asynchronous. */
export function makePrivateFolderSync(path: string): void {
  const first = mkdirSync(path, { recursive: true, mode: privateFolderMode });
  for (const folder of createdFolders(first, path)) chmodSync(folder, privateFolderMode);
}

/** Writes a file only the shop's user may read, whatever mode a file left at that path had. */
export async function writePrivateFile(path: string, data: Buffer | string): Promise<void> {
  await writeFile(path, data, { mode: privateFileMode });
  await chmod(path, privateFileMode);
}
