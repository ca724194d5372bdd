import { photoExtent } from "../domain/photo-extent.ts";
import type { PhotoFormat } from "../domain/photo-type.ts";
import { planRoomBytes, subscriberRoom } from "../domain/subscriber-storage.ts";
import type { SubscriptionStatus } from "../domain/subscription-lifecycle.ts";
import { randomId } from "../store/random-id.ts";
import type { Upload, UploadRepository } from "../store/upload-repository.ts";
import { type DecodeQueue, DecodeTimeout } from "./decode-queue.ts";
import { withoutLocation } from "./photo-location.ts";
import { makeThumbnail, type RejectReason, readPhotoHeader, thumbnailFailure } from "./photo-processing.ts";
import { type PhotoStorage, removePhotoFiles, storageKeys } from "./photo-storage.ts";
import type { StorageQuota } from "./storage-quota.ts";
import { uploadLimits } from "./upload-limits.ts";

/** A file the shop did not keep, and why, in words the next page can translate. */
export interface Rejection {
  name: string;
  reason: RejectReason;
  /** Refused for the client's upload limit: the seconds until it may try again. */
  wait?: number;
}

export interface PhotoIntake {
  /**
   * Checks one file and keeps it as the shopper's upload (in a project when given), or
   * says why not. Nothing is stored for a refused file.
   */
  receive(
    ownerId: string,
    file: { name: string; data: Buffer; tooLarge: boolean },
    projectId?: string,
  ): Promise<Upload | Rejection>;
}

/** File names are for display only: trimmed to something a message can hold. */
export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop()?.trim() || "?";
  return base.length > 80 ? `${base.slice(0, 77)}…` : base;
}

export interface DecodeLimits {
  /** Width × height an image may declare (UPLOAD_MAX_PIXELS). */
  maxPixels: number;
  /** The instance's decodes: a few at a time, each within its time (UPLOAD_DECODE_TIMEOUT_MS). */
  decodes: DecodeQueue;
  /** The instance's room for photos (UPLOAD_STORAGE_MAX_GB). */
  storage: StorageQuota;
  /** The subscription of the account an owner id belongs to, with its plan's room; undefined for none. */
  subscriberOf?: (ownerId: string) => Promise<{ status: SubscriptionStatus; storageGb: number } | undefined>;
}

export function photoIntake(
  uploads: UploadRepository,
  storage: PhotoStorage,
  limits: DecodeLimits,
): PhotoIntake {
  const { maxPixels, decodes, storage: room, subscriberOf } = limits;
  /** The thumbnail, or why there is none; a refused or abandoned file leaves nothing behind. */
  const thumbnailOf = async (data: Buffer, format: PhotoFormat): Promise<Buffer | RejectReason> => {
    try {
      return await decodes.run((timeoutMs) => makeThumbnail(data, { maxPixels, timeoutMs }));
    } catch (err) {
      return err instanceof DecodeTimeout ? "tooSlow" : thumbnailFailure(err, format);
    }
  };
  return {
    async receive(ownerId, file, projectId) {
      const name = displayName(file.name);
      if (file.tooLarge) return { name, reason: "tooLarge" };
      if ((await uploads.countByOwner(ownerId)) >= uploadLimits.maxPhotosPerShopper) {
        return { name, reason: "shopperFull" };
      }
      if (projectId && (await uploads.countInProject(projectId)) >= uploadLimits.maxPhotosPerProject) {
        return { name, reason: "projectFull" };
      }
      // A subscriber's storage: read-only while suspended, and the plan's room (ADR 0099).
      const subscription = await subscriberOf?.(ownerId);
      if (subscription) {
        const fits = subscriberRoom(subscription, await uploads.bytesByOwner(ownerId), file.data.length);
        if (fits === "paused") return { name, reason: "subscriptionPaused" };
        if (fits === "planFull") return { name, reason: "planStorageFull" };
      }
      // The header first, outside the queue: an image bomb is refused before any decode.
      const photo = await readPhotoHeader(file.data, maxPixels);
      if (!photo.ok) return { name, reason: photo.reason };
      // One image and nothing after it: a decoder stops at the image's end, so whatever
      // follows (megabytes of anything) would be stored unseen.
      const extent = photoExtent(file.data, photo.format);
      if (extent === undefined) return { name, reason: "unreadable" };
      if (extent < file.data.length) return { name, reason: "trailingData" };
      // Room is claimed before the decode, and held until the row counts it.
      const claim = await room.claim(file.data.length);
      if (!claim) return { name, reason: "storageFull" };
      try {
        const thumbnail = await thumbnailOf(file.data, photo.format);
        if (typeof thumbnail === "string") return { name, reason: thumbnail };
        const original = await withoutLocation(file.data, photo.format);
        if (!original) return { name, reason: "locationKept" };
        // Files first, then the row: a listed upload always has its files.
        const id = randomId();
        try {
          await storage.put(storageKeys.original(id), original);
          await storage.put(storageKeys.thumbnail(id), thumbnail);
          const upload = {
            id,
            ownerId,
            originalName: name,
            format: photo.format,
            width: photo.width,
            height: photo.height,
            bytes: original.length,
            ...(projectId ? { projectId } : {}),
          };
          // The check above refuses early; this one holds when the same subscriber's
          // uploads arrive at once (two devices, two tabs): a post's own files come one by one.
          const planRoom = planRoomBytes(subscription);
          if (planRoom === undefined) return await uploads.add(upload);
          const added = await uploads.addWithin(upload, planRoom);
          if (added) return added;
          await removePhotoFiles(storage, id);
          return { name, reason: "planStorageFull" };
        } catch (err) {
          await removePhotoFiles(storage, id);
          throw err;
        }
      } finally {
        claim.release();
      }
    },
  };
}

export function isRejection(result: Upload | Rejection): result is Rejection {
  return "reason" in result;
}
