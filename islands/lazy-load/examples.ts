import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

interface Card {
  product: { image: string };
}

export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.lazy-load.examples.default"),
    params: (ctx) => {
      // An image nothing above it on the page shows, so it truly loads only when its example comes near.
      const shown = (ctx.data.product as Card | undefined)?.product;
      const cards = (ctx.data.cards as Card[] | undefined) ?? [];
      const product = cards
        .map((card) => card.product)
        .filter((p) => p !== shown)
        .at(-1);
      return {
        src: product?.image ?? "/static/images/placeholder.svg",
        alt: ctx.t("patterns.lazy-load.alt"),
        width: 400,
        height: 300,
      };
    },
  },
});
