import { defineHook, z } from "../runtime/define-hook.ts";

const pluralTexts = z
  .object({
    zero: z.string().optional(),
    one: z.string().optional(),
    two: z.string().optional(),
    few: z.string().optional(),
    many: z.string().optional(),
    other: z.string().describe('"{count} artikelen": the form for any count without a form of its own'),
  })
  .describe("The count's words per plural form (locales: layout.cartItems)");

const propsSchema = z.object({
  count: z.number().describe("The count the server rendered; the other islands' changes start from it"),
  texts: pluralTexts,
});

export type CartCountProps = z.infer<typeof propsSchema>;

export const contract = defineHook({
  hook: "cart-count",
  kind: "island",
  whenToUse:
    "The cart's item count beside a link to the cart: in the header, and wherever a page confirms what the cart now holds. It follows changes other islands make to the cart.",
  partial: {
    name: "cart-count",
    key: "badge",
    params: z.strictObject({
      count: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe("The number of items; the page's own cart count when left out (the header)"),
    }),
  },
  props: propsSchema,
});
