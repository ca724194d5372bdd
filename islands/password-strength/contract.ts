import { defineHook, z } from "../runtime/define-hook.ts";

export const contract = defineHook({
  hook: "password-strength",
  kind: "behaviour",
  whenToUse:
    "On a field where the shopper chooses a new password. A form definition's field with `strength` writes it through views/partials/forms/field.eta, with the meter's box after the field and the same check on the server.",
  attributes: z.object({
    "data-password-strength": z
      .string()
      .describe("Shows the strength meter for this field; written without a value"),
    "data-strength-min": z.string().optional().describe("The shortest password that counts (8 by default)"),
    "data-strength-ban-mode": z
      .enum(["strict", "exact"])
      .optional()
      .describe("strict: a common password inside it is too weak; exact: only the whole password counts"),
    "data-strength-message": z
      .string()
      .optional()
      .describe("The message validation shows when the password is too weak"),
    "data-strength-for": z
      .string()
      .optional()
      .describe("On the meter's box (not the field): the id of the field it measures"),
    "data-props": z
      .string()
      .optional()
      .describe(
        'On the meter\'s box: its props as JSON, { "texts": forms.strength } (hint, label, levels, tooShort, banned)',
      ),
  }),
});
