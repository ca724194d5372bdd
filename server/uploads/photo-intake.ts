import { randomId } from "../store/random-id.ts";
import type { Upload, UploadRepository } from "../store/upload-repository.ts";
import { preparePhoto, type RejectReason } from "./photo-processing.ts";
import { type PhotoStorage, removePhotoFiles, storageKeys } from "./photo-storage.ts";
import { uploadLimits } from "./upload-limits.ts";

/** A file the shop did not keep, and why, in words the next page can translate. */
export interface Rejection {
  name: string;
  reason: RejectReason;
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

export function photoIntake(uploads: UploadRepository, storage: PhotoStorage): PhotoIntake {
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
      const photo = await preparePhoto(file.data);
      if (!photo.ok) return { name, reason: photo.reason };
      // Files first, then the row: a listed upload always has its files.
      const id = randomId();
      await storage.put(storageKeys.original(id), file.data);
      await storage.put(storageKeys.thumbnail(id), photo.thumbnail);
      try {
        return await uploads.add({
          id,
          ownerId,
          originalName: name,
          format: photo.format,
          width: photo.width,
          height: photo.height,
          bytes: file.data.length,
          ...(projectId ? { projectId } : {}),
        });
      } catch (err) {
        await removePhotoFiles(storage, id);
        throw err;
      }
    },
  };
}

export function isRejection(result: Upload | Rejection): result is Rejection {
  return "reason" in result;
}
