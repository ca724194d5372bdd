import { propertiesOf } from "../../server/domain/analytics-catalogue.ts";
import {
  type AnalyticsBatch,
  type AnalyticsEvent,
  analyticsLimits,
  catalogueEvent,
  propertiesFromDataset,
} from "../../server/domain/analytics-event.ts";
import { analyticsEventType, type TrackDetail, takeEarlyEvents } from "./track.ts";
import { reportViewOnActivation } from "./view-beacon.ts";

export { contract } from "./contract.ts";

export const analyticsEndpoint = "/analytics/events";
/** Events are sent together: after this quiet time, or when the page is hidden or left. */
export const flushDelayMs = 2000;

declare global {
  interface Window {
    dataLayer?: Array<Record<string, unknown>>;
  }
}

/**
 * A submit button's event takes what it lacks from its form, as the form is sent: the
 * option chosen on the product page, a cart line's new quantity. Only fields named as one
 * of the event's catalogue properties are read, never anything the shopper typed elsewhere.
 */
function formProperties(target: HTMLElement, name: string): Record<string, string> {
  const form = (target as HTMLButtonElement).form;
  if (!form || (target as HTMLButtonElement).type !== "submit") return {};
  const found: Record<string, string> = {};
  for (const key of propertiesOf(name)) {
    const field = form.elements.namedItem(key) as { value?: unknown } | null;
    if (typeof field?.value === "string") found[key] = field.value;
  }
  return found;
}

/**
 * Analytics: a click on [data-analytics="event-name"] and a shopper action an island
 * reports (track.ts) are pushed to window.dataLayer for a tag manager and sent in batches
 * with navigator.sendBeacon, which survives the navigation a click often starts. Only the
 * catalogue's names and properties go out (server/domain/analytics-catalogue.ts): the
 * server refuses a batch with anything else. The funnel is counted by the server itself.
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

  const send = (name: string, properties: Record<string, unknown>) => {
    const event = catalogueEvent(name, properties);
    if (!event) return;
    view.dataLayer ??= [];
    view.dataLayer.push({ event: event.event, ...event.properties });
    queue.push(event);
    if (queue.length >= analyticsLimits.eventsPerBatch) flush();
    else {
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, flushDelayMs);
    }
  };

  doc.addEventListener(
    "click",
    (event) => {
      const target = (event.target as Element | null)?.closest?.<HTMLElement>("[data-analytics]");
      const name = target?.dataset.analytics;
      if (!target || !name) return;
      send(name, { ...formProperties(target, name), ...propertiesFromDataset(target.dataset) });
    },
    true,
  );
  doc.addEventListener(analyticsEventType, (event) => {
    const { detail } = event as CustomEvent<TrackDetail>;
    event.preventDefault();
    send(detail.event, detail.properties);
  });
  for (const detail of takeEarlyEvents()) send(detail.event, detail.properties);
  reportViewOnActivation(doc, route, locale);

  view.addEventListener("pagehide", flush);
  doc.addEventListener("visibilitychange", () => {
    if (doc.visibilityState === "hidden") flush();
  });
}
