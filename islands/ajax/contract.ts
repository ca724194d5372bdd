import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "ajax",
  kind: "behaviour",
  whenToUse:
    "On a link or form that already works as a plain link or form, when its answer belongs on the current page: a tip, a cart line, a form's errors. The page's [data-ajax-status] region (in the layout) announces the result.",
  attributes: z.object({
    "data-ajax": z.enum(["true"]).describe("Sends the link or form in the background"),
    "data-ajax-update": z
      .string()
      .optional()
      .describe('CSS selector of every element the answer goes into ("#tip-box")'),
    "data-ajax-mode": z
      .enum(["replace", "before", "after", "replace-with"])
      .default("replace")
      .describe(
        "Replace the target's content, put the answer before or after it, or replace the target itself",
      ),
    "data-ajax-method": z
      .string()
      .optional()
      .describe("GET or POST as they are; another method (DELETE) goes as POST with X-HTTP-Method-Override"),
    "data-ajax-url": z
      .string()
      .optional()
      .describe("Another address for the background request than href or action"),
    "data-ajax-confirm": z.string().optional().describe("A question the shopper confirms first"),
    "data-ajax-loading": z
      .string()
      .optional()
      .describe("CSS selector of an element shown while the request runs"),
    "data-ajax-announce": z
      .string()
      .optional()
      .describe("What screen readers hear when it worked, instead of the page's general text"),
    "data-ajax-csrf": z.string().optional().describe("A CSRF token sent as X-CSRF-Token"),
    "data-ajax-trigger": z
      .enum(["input"])
      .optional()
      .describe(
        "On a form: input sends it in the background as the shopper types, once typing pauses (suggestions). Focus stays in the field, nothing is announced, a failure is quiet, a newer request cancels an older one, and submitting the form stays a plain submit. The form fires fotohoek:ajax-updated (islands/ajax/events.ts) once each answer is in",
      ),
    "data-ajax-debounce": z
      .string()
      .optional()
      .describe(
        'With data-ajax-trigger="input": the pause in typing, in ms, before the request goes (300 by default)',
      ),
  }),
});
