import { defineHook, z } from "../runtime/define-hook.ts";

const propsSchema = z.object({
  productId: z.string().describe("The product whose choice the bar follows (the selection store)"),
  watch: z.string().describe("The id of the add-to-cart region: the bar shows once it is scrolled past"),
});

export type AddToCartBarProps = z.infer<typeof propsSchema>;

export const contract = defineHook({
  hook: "add-to-cart-bar",
  kind: "island",
  whenToUse:
    "Once per product page, after the product: on screens up to 725 px wide it keeps the add-to-cart button in reach once the shopper has scrolled past the form. It only repeats the form, so the page needs the form itself too.",
  partial: {
    name: "add-to-cart-bar",
    key: "bar",
    params: z.strictObject({
      productId: z.string().min(1).describe("The product's id, as the options island names it"),
      form: z.string().min(1).describe("The id of the add-to-cart form its button submits"),
      watch: z
        .string()
        .min(1)
        .describe("The id of the element around that form (kept when an ajax post swaps the form)"),
      choice: z.string().min(1).describe('The option shown, in words: "Liggend, 30x21 cm"'),
      price: z.string().min(1).describe("Its unit price, formatted"),
      available: z.boolean().describe("Whether it can be ordered now; the button is disabled when not"),
    }),
  },
  props: propsSchema,
  parts: {
    "button[data-bar-submit]": {
      required: true,
      description: "Submits the add-to-cart form (form attribute)",
    },
    "[data-bar-choice]": { required: false, description: "The chosen option, kept current" },
    "[data-bar-price]": { required: false, description: "Its price, kept current" },
  },
});
