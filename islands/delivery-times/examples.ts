import type { DeliveryOverview } from "../../server/domain/delivery-overview.ts";
import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

type LiveTimes = { overview?: DeliveryOverview; endpoint: string } | undefined;

export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.delivery-times.examples.default"),
    params: (ctx) => {
      const live = ctx.data.deliveryTimes as LiveTimes;
      return live && { overview: live.overview, endpoint: live.endpoint };
    },
  },
  // What a shopper sees when the times cannot be computed: never an empty table.
  unavailable: {
    title: (ctx) => ctx.t("patterns.delivery-times.examples.unavailable"),
    params: (ctx) => {
      const live = ctx.data.deliveryTimes as LiveTimes;
      return live && { endpoint: live.endpoint };
    },
  },
});
