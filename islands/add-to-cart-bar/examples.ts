import type { ProductOptionsProps } from "../product-options/contract.ts";
import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

type ProductPage = {
  product: { id: string };
  choice: { id: string; orientation: string; available: boolean };
  optionsProps: ProductOptionsProps;
};

export default defineExamples(contract, {
  // Beside the product-options example, whose add-to-cart form it submits (narrow the window and scroll past it).
  default: {
    title: (ctx) => ctx.t("patterns.add-to-cart-bar.examples.default"),
    params: (ctx) => {
      const page = ctx.data.productOptions as ProductPage | undefined;
      const size = page?.optionsProps.sizes.find(
        (s) => s.orientation === page.choice.orientation && s.id === page.choice.id,
      );
      if (!page || !size) return undefined;
      return {
        productId: page.product.id,
        form: "add-to-cart-form",
        watch: "add-to-cart",
        choice: size.choice,
        price: size.price,
        available: page.choice.available,
      };
    },
  },
});
