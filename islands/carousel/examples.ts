import type { Product } from "../../server/domain/catalogue.ts";
import { defineExamples, type ExampleContext } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

type Card = { product: Product; fromPriceCents: number; eager: boolean };
const cardsOf = (data: Record<string, unknown>) => (data.cards as Card[] | undefined) ?? [];

/** Five products' pictures as photo slides; not the lazy-load example's product, whose image must wait for its example. */
function photos(ctx: ExampleContext, withSrcset: boolean) {
  const shown = (ctx.data.product as { product?: Product } | undefined)?.product;
  return cardsOf(ctx.data)
    .filter((card) => card.product !== shown)
    .slice(0, 5)
    .map(({ product }) => ({
      kind: "image" as const,
      src: product.image,
      ...(withSrcset ? { srcset: `${product.image} 400w`, sizes: "(max-width: 480px) 100vw, 400px" } : {}),
      alt: product.name[ctx.locale],
      width: 400,
      height: 300,
    }));
}

export default defineExamples(contract, {
  photos: {
    title: (ctx) => ctx.t("patterns.carousel.examples.photos"),
    params: (ctx) => {
      const slides = photos(ctx, false);
      return slides.length > 0
        ? { id: "carousel-photos", label: ctx.t("patterns.carousel.imagesLabel"), autoplay: true, slides }
        : undefined;
    },
  },
  still: {
    title: (ctx) => ctx.t("patterns.carousel.examples.still"),
    params: (ctx) => {
      const slides = photos(ctx, true);
      return slides.length > 0
        ? { id: "carousel-still", label: ctx.t("patterns.carousel.stillLabel"), autoplay: false, slides }
        : undefined;
    },
  },
  products: {
    title: (ctx) => ctx.t("patterns.carousel.examples.products"),
    params: (ctx) => {
      const slides = cardsOf(ctx.data).map((card) => ({ kind: "product" as const, card }));
      return slides.length > 0
        ? {
            id: "carousel-products",
            label: ctx.t("patterns.carousel.productsLabel"),
            autoplay: false,
            slides,
          }
        : undefined;
    },
  },
});
