import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { takeFlash } from "../http/cookies/flash-cookie.ts";
import { ensureShopperId, readShopperId } from "../http/cookies/shopper-cookie.ts";
import { overClientLimit, retryText } from "../http/limits/client-limits.ts";
import type { UploadBytesLimit } from "../http/limits/upload-bytes.ts";
import type { LocalizedRoutes } from "../http/localized-routes.ts";
import { type ReceivedFile, readMultipartForm } from "../http/multipart-form.ts";
import { isAjax } from "../http/rendering/pages.ts";
import type { Services } from "../http/services.ts";
import { intlLocale, type Locale, perLocale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import { isRandomId } from "../store/random-id.ts";
import type { Upload } from "../store/upload-repository.ts";
import { displayName, isRejection, type PhotoIntake, type Rejection } from "../uploads/photo-intake.ts";
import { thumbnailSide } from "../uploads/photo-processing.ts";
import { storageKeys } from "../uploads/photo-storage.ts";
import { megabytes, uploadLimits } from "../uploads/upload-limits.ts";

/** After a photo was removed without JavaScript: its name, for the page the shopper lands on. */
export const removedFlash = "removed";

/** "strand.jpg is verwijderd." on the page a removal without JavaScript leads to, once; "" otherwise. */
export function takeRemovedNotice(request: FastifyRequest, reply: FastifyReply, t: Translate): string {
  const removed = takeFlash<{ name?: unknown }>(request, reply, removedFlash);
  return typeof removed?.name === "string" ? t("editor.removed", { name: removed.name }) : "";
}

export const thumbnailPath = (uploadId: string) => `/uploads/${uploadId}/thumbnail.jpg`;
/** The photo as stored (full resolution, without its location): the shopper's own to download. */
export const originalPath = (uploadId: string) => `/uploads/${uploadId}/original`;

const originalTypes: Record<string, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  heic: "image/heic",
  avif: "image/avif",
};

/** A file name a Content-Disposition header can carry: the upload's, in ASCII, and its UTF-8 form beside it. */
function attachmentName(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  // RFC 8187: encodeURIComponent leaves ' ( ) * as they are, which that grammar does not.
  const utf8 = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

/** An upload as lists and previews show it: its thumbnail's address and size. */
export function uploadView(upload: Upload) {
  const scale = Math.min(1, thumbnailSide / Math.max(upload.width, upload.height));
  return {
    id: upload.id,
    name: upload.originalName,
    createdAt: upload.createdAt,
    thumbnail: thumbnailPath(upload.id),
    original: originalPath(upload.id),
    width: Math.max(1, Math.round(upload.width * scale)),
    height: Math.max(1, Math.round(upload.height * scale)),
    projectId: upload.projectId,
  };
}

export function uploadViews(
  uploads: readonly Upload[],
  projectHref: (params: { project: string }) => string,
) {
  return uploads.map((upload) => ({
    ...uploadView(upload),
    projectHref: upload.projectId ? projectHref({ project: upload.projectId }) : undefined,
  }));
}

/** "50" or "12,5": megapixels as the shopper's language writes them. */
const megapixels = perLocale((l) => new Intl.NumberFormat(intlLocale[l], { maximumFractionDigits: 1 }));

/** The instance's limits a refusal may name, for rejectionMessage. */
export function uploadLimitsShown(services: Services, locale: Locale) {
  return {
    maxPixels: services.config.uploadMaxPixels,
    bytesPerClient: services.config.limits.uploadBytesPerClient,
    locale,
  };
}

/** A refused file in the shopper's words, with the limit it ran into (the pixel limit is the instance's setting). */
export function rejectionMessage(
  rejection: Rejection,
  t: Translate,
  limits: { maxPixels: number; bytesPerClient: number; locale: Locale },
): string {
  return t(`editor.rejected.${rejection.reason}`, {
    name: rejection.name,
    max: megabytes(uploadLimits.maxFileBytes),
    megapixels: megapixels[limits.locale].format(limits.maxPixels / 1_000_000),
    projectMax: uploadLimits.maxPhotosPerProject,
    shopperMax: uploadLimits.maxPhotosPerShopper,
    perRequest: uploadLimits.maxFilesPerRequest,
    bytesMax: megabytes(limits.bytesPerClient),
    retry: rejection.wait ? retryText(t, rejection.wait) : "",
  });
}

/** The intake and the per-client byte limit the routes that take photos share. */
export interface PhotoReceiving {
  intake: PhotoIntake;
  uploadBytes: UploadBytesLimit;
}

/**
 * Receives one file for the shopper (into a project when given). First it counts against
 * the client's limits, before anything of it is stored: one more photo (UPLOAD_RATE_LIMIT
 * per hour), and its bytes (UPLOAD_BYTES_PER_CLIENT_MB per hour), which go back to the
 * client when the file is refused after all. Over a limit: the refusal, with Retry-After.
 */
export async function receivePhoto(
  services: Services,
  receiving: PhotoReceiving,
  request: FastifyRequest,
  reply: FastifyReply,
  owner: string,
  file: ReceivedFile,
  projectId?: string,
): Promise<Upload | Rejection> {
  const name = displayName(file.name);
  const wait = await overClientLimit(services.limits.uploads, request, reply, "photo upload");
  if (wait !== undefined) return { name, reason: "rateLimited", wait };
  const bytes = await receiving.uploadBytes.take(request, reply, file.data.length);
  if ("wait" in bytes) return { name, reason: "bytesRateLimited", wait: bytes.wait };
  let result: Upload | Rejection | undefined;
  try {
    result = await receiving.intake.receive(owner, file, projectId);
    return result;
  } finally {
    if (!result || isRejection(result)) await bytes.giveBack();
  }
}

/**
 * The status for a post whose files were all refused (or that kept some, for the
 * uploader's one-file posts): 429 when waiting will do (Retry-After is set), 507 when the
 * shop has no room left, 422 for anything the shopper can mend.
 */
export function refusedStatus(rejected: readonly Rejection[]): 429 | 507 | 422 {
  if (rejected.some((r) => r.wait)) return 429;
  if (rejected.some((r) => r.reason === "storageFull")) return 507;
  return 422;
}

/**
 * Photos of the shopper's own: their thumbnails (only for the browser that uploaded
 * them) and the enhanced uploader's one-file-at-a-time endpoint.
 */
export function uploadRoutes(
  app: FastifyInstance,
  services: Services,
  routes: LocalizedRoutes,
  receiving: PhotoReceiving,
): void {
  const route = routes.on(app);
  const { i18n, uploads, projects, photoStorage } = services;

  app.get<{ Params: { upload: string } }>(
    "/uploads/:upload/thumbnail.jpg",
    { config: { csrf: false } },
    async (request, reply) => {
      const owner = readShopperId(request);
      const id = request.params.upload;
      const upload = owner && isRandomId(id) ? await uploads.get(owner, id) : undefined;
      const data = upload ? await photoStorage.read(storageKeys.thumbnail(upload.id)) : undefined;
      if (!data) return reply.callNotFound();
      // Private: a shopper's photos never sit in a shared cache. The id never changes its picture.
      reply.header("cache-control", "private, max-age=604800, immutable");
      return reply.type("image/jpeg").send(data);
    },
  );

  // The photo itself, for the browser that uploaded it (or the account it belongs to), as a download.
  app.get<{ Params: { upload: string } }>(
    "/uploads/:upload/original",
    { config: { csrf: false } },
    async (request, reply) => {
      const owner = readShopperId(request);
      const id = request.params.upload;
      const upload = owner && isRandomId(id) ? await uploads.get(owner, id) : undefined;
      const data = upload ? await photoStorage.read(storageKeys.original(upload.id)) : undefined;
      if (!upload || !data) return reply.callNotFound();
      reply.header("cache-control", "private, no-store");
      reply.header("content-disposition", attachmentName(upload.originalName));
      reply.header("x-content-type-options", "nosniff");
      return reply.type(originalTypes[upload.format] ?? "application/octet-stream").send(data);
    },
  );

  /**
   * The enhanced uploader sends each photo on its own, for per-file progress and
   * cancel; the photo is kept for the shopper and joins a project when the form around
   * it is sent. The answer is the list item (200) or the reason it was refused (422; 429
   * with Retry-After when the client uploaded too many photos or bytes lately; 507 when the
   * shop's storage is full).
   */
  route(
    "editorUpload",
    "POST",
    async (request, reply) => {
      const t = i18n.t[request.locale];
      const owner = ensureShopperId(request, reply);
      const results: Array<Upload | Rejection> = [];
      // The project the photo is meant for, when the uploader names it before the file: a full one refuses early.
      let project: { id: string; photoCount: number } | undefined;
      const form = await readMultipartForm(app, request, reply, async (file, fields) => {
        const wanted = fields.project?.[0];
        if (!project && wanted && isRandomId(wanted)) project = await projects.get(owner, wanted);
        if (project && project.photoCount >= uploadLimits.maxPhotosPerProject) {
          results.push({ name: displayName(file.name), reason: "projectFull" });
          return;
        }
        results.push(await receivePhoto(services, receiving, request, reply, owner, file));
      });
      if (!form) return reply;
      const projectId = project?.id;

      if (!isAjax(request)) {
        // Without JavaScript, photos travel with the editor's own forms; this address is the uploader's.
        const back = projectId
          ? i18n.routes.pathFor("editorProject", request.locale, { project: projectId })
          : i18n.routes.pathFor("editorStart", request.locale);
        return reply.redirect(back, 303);
      }
      reply.header("cache-control", "private, no-store");
      const rejected = results.filter(isRejection);
      const accepted = results.filter((r): r is Upload => !isRejection(r));
      if (form.tooMany) rejected.push({ name: "", reason: "tooMany" });
      if (accepted.length === 0 && rejected.length === 0) rejected.push({ name: "?", reason: "empty" });
      return reply.page(
        "partials/staged-photos",
        {
          title: "",
          staged: accepted.map(uploadView),
          messages: rejected.map((r) => rejectionMessage(r, t, uploadLimitsShown(services, request.locale))),
        },
        { status: rejected.length > 0 ? refusedStatus(rejected) : 200 },
      );
    },
    { csrf: false, rateLimit: { max: 120, timeWindow: "1 minute" } },
  );
}
