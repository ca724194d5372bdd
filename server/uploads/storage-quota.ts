/**
 * The instance's room for photos (UPLOAD_STORAGE_MAX_GB): what the uploads table says is
 * stored, plus what uploads in progress have claimed and not yet written. Claims are made
 * one at a time, so two uploads at once cannot both take the last room.
 */
export interface StorageQuota {
  /** Claims room for `bytes`; undefined when the instance cannot store that much more. */
  claim(bytes: number): Promise<{ release(): void } | undefined>;
}

export function storageQuota(storedBytes: () => Promise<number>, maxBytes: number): StorageQuota {
  let claimed = 0;
  let turn: Promise<unknown> = Promise.resolve();
  return {
    claim(bytes) {
      const claiming = turn.then(async () => {
        // A photo whose row was just written counts twice until its claim is released: too strict for a moment, never too lax.
        if ((await storedBytes()) + claimed + bytes > maxBytes) return undefined;
        claimed += bytes;
        let released = false;
        return {
          release() {
            if (released) return;
            released = true;
            claimed -= bytes;
          },
        };
      });
      turn = claiming.catch(() => {});
      return claiming;
    },
  };
}
