import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

/** An order's payment part in its final states: an open one would poll a page that has none. */
export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.payment-status.examples.default"),
    params: (ctx) => ({
      url: ctx.href("patterns"),
      state: "paid" as const,
      orderStatus: "paid",
      amountCents: 4995,
      email: "anna@example.nl",
      methods: [],
    }),
  },
  failed: {
    title: (ctx) => ctx.t("patterns.payment-status.examples.failed"),
    params: (ctx) => ({
      // Its pay-again form needs an address that takes a post: the library's example form.
      url: ctx.href("patternsForm"),
      state: "failed" as const,
      orderStatus: "awaiting_payment",
      amountCents: 4995,
      email: "anna@example.nl",
      methods: [
        { id: "ideal", description: "iDEAL" },
        { id: "creditcard", description: ctx.t("patterns.payment-status.examples.card") },
      ],
    }),
  },
});
