import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

interface Card {
  product: { image: string };
}

/**
 * An image nothing above it on the page loads (the product card's example shows `shown`, the
 * carousels' first slides the first products), so it truly loads only when its example comes near.
 */
function unseenImage(data: Record<string, unknown>, fromEnd: number): string {
  const shown = (data.product as Card | undefined)?.product;
  const cards = (data.cards as Card[] | undefined) ?? [];
  const product = cards
    .map((card) => card.product)
    .filter((p) => p !== shown)
    .at(-fromEnd);
  return product?.image ?? "/static/images/placeholder.svg";
}

export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.lazy-load.examples.default"),
    params: (ctx) => ({
      src: unseenImage(ctx.data, 1),
      alt: ctx.t("patterns.lazy-load.alt"),
      width: 400,
      height: 300,
    }),
  },
  responsive: {
    title: (ctx) => ctx.t("patterns.lazy-load.examples.responsive"),
    params: (ctx) => {
      const src = unseenImage(ctx.data, 2);
      return {
        src,
        srcset: `${src} 400w`,
        sizes: "(max-width: 480px) 100vw, 400px",
        alt: ctx.t("patterns.lazy-load.alt"),
        width: 400,
        height: 300,
      };
    },
  },
});
