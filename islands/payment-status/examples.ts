import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

/**
 * The payment part in final states, for an order and for a subscription: an open one would
 * poll a page that has none.
 */
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
  subscription: {
    title: (ctx) => ctx.t("patterns.payment-status.examples.subscription"),
    params: (ctx) => ({
      url: ctx.href("patterns"),
      texts: "subscriptionPayment" as const,
      state: "paid" as const,
      orderStatus: "active",
      amountCents: 299,
      email: "anna@example.nl",
      methods: [],
      paidNote: ctx.t("subscriptionPayment.paidUntil", { date: "28 december 2026" }),
    }),
  },
});
