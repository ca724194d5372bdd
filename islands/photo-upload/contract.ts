import type { uploadView } from "../../server/routes/uploads.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

const textsSchema = z.object({
  drop: z.string().describe("The hint that photos can be dropped too"),
  dropActive: z.string().describe("The hint while photos are dragged over it"),
  progress: z.string().describe("A progress bar's name: {name}, {percent}"),
  uploading: z.string().describe("A photo on its way"),
  cancel: z.string().describe("The cancel button"),
  cancelLabel: z.string().describe("Its accessible name: {name}"),
  cancelled: z.string().describe("A cancelled photo"),
  remove: z.string().describe("The remove button"),
  removeLabel: z.string().describe("Its accessible name: {name}"),
  removed: z.string().describe("Announced once a photo is deleted: {name}"),
  removeFailed: z.string().describe("Announced when a photo could not be deleted: {name}"),
  failed: z.string().describe("An upload that failed"),
  retry: z.string().describe("The try-again button"),
  wait: z.string().describe("Announced when the form is sent while photos still upload"),
  ready: z
    .object({ one: z.string(), other: z.string() })
    .describe("Announced when all are up: {count}, plural"),
});

const propsSchema = z.object({
  url: z.string().describe("Where each photo is posted on its own"),
  removeUrl: z.string().describe("Where an uploaded photo is deleted"),
  project: z.string().optional().describe("The project the photos go to, posted before each photo"),
  texts: textsSchema.describe("The uploader's words, from the upload texts"),
});

export type UploadTexts = z.infer<typeof textsSchema>;
export type PhotoUploadProps = z.infer<typeof propsSchema>;

const paramsSchema = z.strictObject({
  url: z.string().min(1).describe('Where each photo is posted: href("editorUpload")'),
  accept: z
    .string()
    .describe("The file field's accept attribute (acceptedPhotoTypes): a hint, never a check"),
  maxMegabytes: z.number().describe("The largest photo, in MB, for the hint"),
  perRequest: z.number().int().describe("How many photos one post may carry, for the hint"),
  projectId: z.string().optional().describe("The project the photos go to; left out before there is one"),
  staged: z
    .array(z.custom<ReturnType<typeof uploadView>>(() => true))
    .describe(
      "(uploadView[]) Photos uploaded already and waiting for the form, each shown with partials/staged-photo",
    ),
  error: z.string().optional().describe('The message for the picker, such as "choose at least one photo"'),
  id: z
    .string()
    .optional()
    .describe('What the file field\'s id starts with, unique on the page (default "photos")'),
});

export type PhotoUploadParams = z.input<typeof paramsSchema>;

export const contract = defineHook({
  hook: "photo-upload",
  kind: "island",
  whenToUse:
    "Choosing photos inside a multipart form whose first field is _csrf, for the editor and anything that takes photos. partials/staged-photo (one uploaded photo) and partials/staged-photos (the upload's answer) are its plain companions.",
  partial: { name: "photo-upload", key: "upload", params: paramsSchema },
  props: propsSchema,
  parts: {
    'input[type="file"]': {
      required: true,
      description: "The file field; its files go with the form without JavaScript",
    },
    "[data-upload-drop]": { required: true, description: "The area photos can be dropped on" },
    "[data-upload-list]": { required: true, description: "The list of photos, uploaded and on their way" },
    "[data-upload-drop-hint]": { required: false, description: "The drop hint, hidden without JavaScript" },
    "[data-upload-status]": { required: false, description: "The status region announcements go to" },
    "[data-upload-item]": {
      required: false,
      description: "An uploaded photo in the list (partials/staged-photo)",
    },
    "[data-upload-remove]": { required: false, description: "An uploaded photo's remove button" },
  },
});
