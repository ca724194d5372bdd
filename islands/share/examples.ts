import { shareLinks } from "../../server/domain/share-links.ts";
import { defineExamples } from "../runtime/define-examples.ts";
import type { ParamsOf } from "../runtime/define-hook.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  // This page itself, as a page's share block shares its own address.
  default: {
    title: (ctx) => ctx.t("patterns.share.examples.default"),
    params: (ctx) => {
      const page = ctx.data.sharePage as { url: string; title: string } | undefined;
      return page && { ...page, links: shareLinks(page) };
    },
  },
  // A product page's block: it shares the product's address, title and summary.
  product: {
    title: (ctx) => ctx.t("patterns.share.examples.product"),
    params: (ctx) => (ctx.data.productOptions as { share?: ParamsOf<typeof contract> } | undefined)?.share,
  },
});
