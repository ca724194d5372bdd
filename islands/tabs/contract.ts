import { defineHook, z } from "../runtime/define-hook.ts";

const propsSchema = z.object({
  label: z.string().describe("The accessible name of the list of tabs (and of the accordion)"),
});

export type TabsProps = z.infer<typeof propsSchema>;

export const contract = defineHook({
  hook: "tabs",
  kind: "island",
  whenToUse:
    "Two to five parts of one page that a shopper reads one at a time (plans, uploads, questions). Not for steps that follow each other, nor for content a shopper must compare side by side.",
  partial: {
    name: "tabs",
    key: "tabs",
    params: z.strictObject({
      id: z.string().min(1).describe("The id of the tabs' box, unique on the page"),
      label: z
        .string()
        .min(1)
        .describe('What the tabs are about, read by screen readers: "Over het abonnement"'),
      sections: z
        .array(
          z.strictObject({
            id: z
              .string()
              .min(1)
              .describe("The section's id: its label in plain letters (tabSlug), so #label opens it"),
            label: z
              .string()
              .min(1)
              .describe("The tab's words, also the section's heading without JavaScript"),
          }),
        )
        .min(1)
        .describe("The sections, in order"),
      panels: z
        .array(z.string())
        .describe(
          "Each section's content, in the sections' order: trusted HTML, the output of an include (never a shopper's text)",
        ),
    }),
  },
  props: propsSchema,
  parts: {
    "section[data-tab-label]": { required: true, description: "A section, named by its data-tab-label" },
    ".tabs__index": {
      required: false,
      description: "The list of links to the sections, only needed without JavaScript",
    },
  },
});
