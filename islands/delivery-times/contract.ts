import type { DeliveryOverview } from "../../server/domain/delivery-overview.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

const textsSchema = z.object({
  production: z.string().describe("Column heading: production time"),
  sent: z.string().describe("Column heading: sent on"),
  delivered: z.string().describe("Column heading: delivered on"),
  unavailable: z.string().describe("The error text shown instead of a table when the times cannot be had"),
  unavailableLink: z.string().describe("The words of the link to customer service under that text"),
});

const propsSchema = z.object({
  endpoint: z.string().describe("The JSON address the island fetches the overview from again"),
  overview: z
    .custom<DeliveryOverview>(() => true)
    .nullable()
    .describe("(DeliveryOverview) The overview the server rendered; null when it had none"),
  texts: textsSchema.describe("The table's words, from the deliveryTimes texts"),
  customerServiceHref: z.string().describe("Where the error text's link goes"),
});

export type DeliveryTimesTexts = z.infer<typeof textsSchema>;
export type DeliveryTimesProps = z.infer<typeof propsSchema>;

export const contract = defineHook({
  hook: "delivery-times",
  kind: "island",
  whenToUse:
    "The overview of when an order placed now is sent and delivered, per product group: the delivery-times page, or anywhere the whole table belongs. For one product's dispatch date, use the product page's own line.",
  partial: {
    name: "delivery-times",
    key: "deliveryTimes",
    params: z.strictObject({
      overview: z
        .custom<DeliveryOverview>(() => true)
        .optional()
        .describe(
          "(DeliveryOverview) services.deliveryTimes.overview(locale, now); left out when it could not be computed",
        ),
      endpoint: z
        .string()
        .min(1)
        .describe('The JSON address of the same overview: href("deliveryTimesData")'),
    }),
  },
  props: propsSchema,
});
