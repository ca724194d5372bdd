import { defineForm } from "./form.ts";

/** Enough for any family order, and a bound that keeps a mistyped 1000 out of a cart. */
export const maxQuantity = 99;

/**
 * The quantity a shopper types: on the product page's add-to-cart form and on each line of
 * the cart. Product and option travel as hidden fields and are checked against the
 * catalogue by the route.
 */
export const addToCartForm = defineForm({
  id: "add-to-cart",
  fields: [
    {
      name: "quantity",
      type: "number",
      label: "product.quantity",
      inputmode: "numeric",
      rules: [
        { rule: "required" },
        { rule: "digits" },
        { rule: "range", message: "validation.quantity", params: { min: 1, max: maxQuantity } },
      ],
    },
  ],
});
