import { defineHook, z } from "../runtime/define-hook.ts";

/**
 * Where an order or a subscription stands with paying, as its page words it
 * (server/routes/order-confirmation.ts, server/routes/subscription-payment.ts).
 */
export const paymentStates = ["none", "open", "failed", "paid", "cancelled", "expired"] as const;
export type PaymentState = (typeof paymentStates)[number];

const propsSchema = z.object({
  url: z.string().describe("The order page's own address: asked for its payment-status fragment"),
  final: z
    .boolean()
    .describe("Whether the state can still change without the shopper: false only while a payment is open"),
});

export type PaymentStatusProps = z.infer<typeof propsSchema>;

export const contract = defineHook({
  hook: "payment-status",
  kind: "island",
  whenToUse:
    "The payment part of an order's or a subscription's page: the order's status in words, what happened to its payment, and the form to pay (again). While a payment is still open, the island asks the page for this part again, waiting longer each time (1 s, 2 s, 4 s … up to 30 s), replaces it when the state changed, says the new state politely to screen readers, and stops once it is final. Without JavaScript the page shows the state of the moment it was loaded.",
  partial: {
    name: "payment-status",
    key: "paymentStatus",
    params: z.strictObject({
      url: z
        .string()
        .min(1)
        .describe("The page's own address, polled for this part and posted to for paying"),
      texts: z
        .enum(["order", "subscriptionPayment"])
        .optional()
        .describe(
          'The locale group of the words that differ for what is paid for: "order" (the default) or "subscriptionPayment"',
        ),
      state: z.enum(paymentStates).describe("Where the order stands with paying"),
      orderStatus: z
        .string()
        .min(1)
        .describe("The order's (or subscription's) status, named in locales <texts>.status.*"),
      amountCents: z
        .number()
        .int()
        .min(0)
        .describe("What is still to be paid: the order's total, or the subscription's first period"),
      email: z.string().describe("Where the confirmation goes (or went)"),
      notice: z
        .enum(["unavailable"])
        .optional()
        .describe('"unavailable": starting a payment just failed because the provider could not be reached'),
      methods: z
        .array(z.object({ id: z.string(), description: z.string() }))
        .describe("The provider's methods for the pay-again form; empty: the provider's page asks"),
      paidNote: z
        .string()
        .optional()
        .describe("A sentence shown once paid (until when a subscription is paid)"),
      message: z
        .string()
        .optional()
        .describe(
          "A sentence replacing the state's own: where a running subscription stands (past due, under notice, ...)",
        ),
    }),
  },
  props: propsSchema,
  parts: {
    "[data-payment-status-message]": {
      required: true,
      description: "The sentence saying what happened to the payment: read out when it changes",
    },
  },
});
