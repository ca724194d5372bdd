import { defineExamples } from "../runtime/define-examples.ts";
import { contract } from "./contract.ts";

interface Times {
  ago: Date[];
  remaining: Date[];
}

const times = (data: Record<string, unknown>) => data.times as Times | undefined;
const inList = (html: string) => `<ul class="pattern__list"><li>${html.trim()}</li></ul>`;

export default defineExamples(contract, {
  ago: {
    title: (ctx) => ctx.t("patterns.relative-time.examples.ago"),
    params: (ctx) => {
      const date = times(ctx.data)?.ago[0];
      return date && { date, kind: "ago" as const };
    },
    markup: (_ctx, html) => inList(html),
  },
  remaining: {
    title: (ctx) => ctx.t("patterns.relative-time.examples.remaining"),
    params: (ctx) => {
      const date = times(ctx.data)?.remaining[0];
      return date && { date, kind: "remaining" as const };
    },
    markup: (_ctx, html) => inList(html),
  },
  ended: {
    title: (ctx) => ctx.t("patterns.relative-time.examples.ended"),
    params: (ctx) => {
      const date = times(ctx.data)?.remaining.at(-1);
      return date && { date, kind: "remaining" as const };
    },
    markup: (_ctx, html) => inList(html),
  },
});
