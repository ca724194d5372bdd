import { defineHook, z } from "../runtime/define-hook.ts";

const textsSchema = z.object({
  close: z.string().describe("The close button's accessible name"),
  loading: z.string().describe("Shown while a page's content is on its way"),
  failed: z.string().describe("Shown when a page's content cannot be fetched"),
  openPage: z.string().describe("The link to that page instead"),
});

const propsSchema = z.object({
  title: z.string().describe("The dialog's heading"),
  url: z.string().optional().describe("A page whose fragment is the content"),
  source: z.string().optional().describe("Or the id of a modal-source section on this page"),
  texts: textsSchema.describe("The dialog's own words, from the modal texts"),
});

export type ModalTexts = z.infer<typeof textsSchema>;
export type ModalProps = z.infer<typeof propsSchema> & { label: string };

export const contract = defineHook({
  hook: "modal",
  kind: "island",
  whenToUse:
    "Extra information a shopper may want without leaving the page (the terms of cancelling, a comparison table), that also makes sense as a page of its own. Content from this page goes into partials/modal-source (id, title, html), a plain partial that stays readable on the page without JavaScript.",
  partial: {
    name: "modal",
    key: "modal",
    // Either url or source: one object with a check rather than a union, so the parameter table can list it.
    params: z
      .strictObject({
        label: z.string().min(1).describe("The link's words, kept by the button that replaces it"),
        title: z.string().min(1).describe("The dialog's heading"),
        url: z
          .string()
          .min(1)
          .optional()
          .describe("A page whose content the dialog shows (fetched as its fragment); either this or source"),
        source: z
          .string()
          .min(1)
          .optional()
          .describe("Or the id of a partials/modal-source section on this page"),
      })
      .refine((modal) => (modal.url === undefined) !== (modal.source === undefined), {
        message: "give either url or source, not both",
      }),
  },
  props: propsSchema,
  companions: {
    "data-modal-source":
      "On the section partials/modal-source writes: content of this page a modal shows; hidden on the page once its modal island is ready",
    "data-modal-body": "Inside that section: the part that moves into the dialog while it is open",
    "data-modal-ready": "Set by the island on that section once it has mounted (then the section hides)",
  },
  parts: {
    "a.modal-trigger__link": {
      required: true,
      description: "The link that works without JavaScript; its words become the button's",
    },
  },
});
