import { readFile, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { makePrivateFolder, writePrivateFile } from "../store/private-files.ts";

/**
 * Where uploaded photos and their thumbnails are kept. The shop only ever asks for a
 * key it made itself; a disk folder is the default, and an object store would implement
 * the same three calls.
 */
export interface PhotoStorage {
  put(key: string, data: Buffer): Promise<void>;
  /** undefined when nothing is stored under the key */
  read(key: string): Promise<Buffer | undefined>;
  remove(key: string): Promise<void>;
}

/** Keys are ours: a folder and a random id, so no key can point outside the storage root. */
const keyPattern = /^[a-z]+\/[\w-]{22}(\.[a-z]+)?$/;

function checkKey(key: string): string {
  if (!keyPattern.test(key)) throw new Error(`photo storage: refusing the key "${key}"`);
  return key;
}

export const storageKeys = {
  original: (uploadId: string) => `originals/${uploadId}`,
  thumbnail: (uploadId: string) => `thumbnails/${uploadId}.jpg`,
};

/** Deletes an upload's original and thumbnail; a file already gone is no error. */
export async function removePhotoFiles(storage: PhotoStorage, uploadId: string): Promise<void> {
  await Promise.all([
    storage.remove(storageKeys.original(uploadId)),
    storage.remove(storageKeys.thumbnail(uploadId)),
  ]);
}

export function diskPhotoStorage(root: string): PhotoStorage {
  const path = (key: string) => resolve(root, checkKey(key));
  return {
    async put(key, data) {
      const file = path(key);
      // Shoppers' photos are theirs: folders 0700, files 0600 (store/private-files.ts).
      await makePrivateFolder(dirname(file));
      // Written aside and renamed, so a reader never sees half a photo.
      const partial = `${file}.partial`;
      await writePrivateFile(partial, data);
      await rename(partial, file);
    },
    async read(key) {
      try {
        return await readFile(path(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw err;
      }
    },
    async remove(key) {
      await rm(path(key), { force: true });
    },
  };
}
