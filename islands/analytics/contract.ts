import { eventNamePattern } from "../../server/domain/analytics-event.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "analytics",
  kind: "behaviour",
  whenToUse:
    "On a link or button whose clicks the shop wants counted (a call to action, a share button). Never for personal data: properties are short, public words.",
  attributes: z.object({
    "data-analytics": z
      .string()
      .regex(eventNamePattern)
      .describe('The event name: lower case, digits and _ . : - ("add-to-cart")'),
    "data-analytics-*": z
      .string()
      .optional()
      .describe('Extra properties sent with the event: data-analytics-section="patterns" sends section'),
  }),
});
