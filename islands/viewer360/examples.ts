import { defineExamples } from "../runtime/define-examples.ts";
import type { ParamsOf } from "../runtime/define-hook.ts";
import { contract } from "./contract.ts";

export default defineExamples(contract, {
  default: {
    title: (ctx) => ctx.t("patterns.viewer360.examples.default"),
    params: (ctx) => ctx.data.viewer as ParamsOf<typeof contract> | undefined,
  },
});
