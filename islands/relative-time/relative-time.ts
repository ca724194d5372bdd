import { nextChangeInMs, type RelativeKind, relativeTimeText } from "../../server/domain/relative-time.ts";
import { pageLang } from "../runtime/lang.ts";
import { pageProps } from "../runtime/props.ts";
import type { RelativeTimePageProps } from "./contract.ts";

export { contract } from "./contract.ts";

const selector = "time[data-relative-time]";

/**
 * Keeps server-rendered relative times ("5 minuten geleden", "Nog 3 dagen geldig")
 * current while the page stays open, including times inserted later.
 */
export function start(doc: Document): void {
  const { texts } = pageProps<RelativeTimePageProps>(doc, "relative-time");
  let timer: ReturnType<typeof setTimeout> | undefined;

  const update = () => {
    const now = new Date();
    let soonest = 60 * 60_000;
    for (const el of doc.querySelectorAll<HTMLTimeElement>(selector)) {
      const date = new Date(el.dateTime);
      if (Number.isNaN(date.getTime())) continue;
      const kind: RelativeKind = el.dataset.relativeTime === "remaining" ? "remaining" : "ago";
      const text = relativeTimeText(date, now, kind, texts, pageLang(el));
      if (el.textContent !== text) el.textContent = text;
      soonest = Math.min(soonest, nextChangeInMs(date, now));
    }
    if (timer) clearTimeout(timer);
    timer = setTimeout(update, soonest);
  };

  update();
  const view = doc.defaultView;
  if (view) {
    const bringsTimes = (node: Node) =>
      node instanceof view.Element && (node.matches(selector) || node.querySelector(selector) !== null);
    new view.MutationObserver((records) => {
      if (records.some((r) => [...r.addedNodes].some(bringsTimes))) update();
    }).observe(doc.body, { childList: true, subtree: true });
    // Timers sleep in background tabs; catch up when the shopper comes back.
    doc.addEventListener("visibilitychange", () => {
      if (doc.visibilityState === "visible") update();
    });
  }
}
