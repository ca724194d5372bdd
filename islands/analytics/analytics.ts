import {
  type AnalyticsBatch,
  type AnalyticsEvent,
  analyticsLimits,
  eventNamePattern,
  propertiesFromDataset,
} from "../../server/domain/analytics-event.ts";

export { contract } from "./contract.ts";

export const analyticsEndpoint = "/analytics/events";
/** Clicks are sent together: after this quiet time, or when the page is hidden or left. */
export const flushDelayMs = 2000;

declare global {
  interface Window {
    dataLayer?: Array<Record<string, unknown>>;
  }
}

/**
 * Click analytics: a click on [data-analytics="event-name"] is pushed to window.dataLayer
 * for a tag manager and sent in batches with navigator.sendBeacon, which survives the
 * navigation that the click itself often starts.
 */
export function start(doc: Document): void {
  const view = doc.defaultView;
  if (!view) return;
  const html = doc.documentElement;
  const route = html.dataset.route ?? "unknown";
  const locale = html.lang || "nl";
  const queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0) {
      const batch: AnalyticsBatch = {
        route,
        locale,
        events: queue.splice(0, analyticsLimits.eventsPerBatch),
      };
      const body = new Blob([JSON.stringify(batch)], { type: "application/json" });
      if (!view.navigator.sendBeacon?.(analyticsEndpoint, body)) {
        void view.fetch(analyticsEndpoint, { method: "POST", body, keepalive: true }).catch(() => {});
      }
    }
  };

  doc.addEventListener(
    "click",
    (event) => {
      const target = (event.target as Element | null)?.closest?.<HTMLElement>("[data-analytics]");
      const name = target?.dataset.analytics;
      if (!target || !name || !eventNamePattern.test(name)) return;
      const properties = propertiesFromDataset(target.dataset);
      view.dataLayer ??= [];
      view.dataLayer.push({ event: name, ...properties });
      queue.push({ event: name, properties });
      if (queue.length >= analyticsLimits.eventsPerBatch) flush();
      else {
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, flushDelayMs);
      }
    },
    true,
  );
  view.addEventListener("pagehide", flush);
  doc.addEventListener("visibilitychange", () => {
    if (doc.visibilityState === "hidden") flush();
  });
}
