import type { RelativeTimeTexts } from "../../server/domain/relative-time.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

/**
 * Its words, the same for every time on the page, so the layout writes them once:
 * <script type="application/json" data-props-for="relative-time">, read with pageProps().
 * Not `props` below: the runtime checks those on each time element, which carries none.
 */
export interface RelativeTimePageProps {
  texts: RelativeTimeTexts;
}

export const contract = defineHook({
  hook: "relative-time",
  kind: "behaviour",
  whenToUse:
    'For a moment the shopper reads relative to now: "5 minuten geleden" (an upload) or "Nog 3 dagen geldig" (an offer). The full date stays in the title. Its words (locales: relativeTime) come once per page, as the props the layout writes in `<script type="application/json" data-props-for="relative-time">` when the partial is used.',
  partial: {
    name: "relative-time",
    key: "time",
    params: z.strictObject({
      date: z.union([z.date(), z.string().min(1)]).describe("The moment: a Date or an ISO text"),
      kind: z
        .enum(["ago", "remaining"])
        .describe('"ago": how long since ("5 minuten geleden"); "remaining": how long it still holds'),
    }),
  },
  attributes: z.object({
    "data-relative-time": z.enum(["ago", "remaining"]).describe("Which of the two texts the time shows"),
    datetime: z.string().describe("The moment, as an ISO text"),
  }),
});
