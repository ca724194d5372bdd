import type { AnalyticsEventName, AnalyticsPropertiesOf } from "../../server/domain/analytics-catalogue.ts";

/**
 * Islands report what a shopper did without importing the analytics behaviour or knowing
 * whether it runs: one bubbling DOM event, which the analytics behaviour counts. An island
 * stays small (this module is a few bytes) and works the same on a page without analytics.
 */
export const analyticsEventType = "fotohoek:analytics";

export interface TrackDetail {
  event: AnalyticsEventName;
  properties: Record<string, string | number | boolean>;
}

/**
 * What was tracked before the analytics behaviour listened: it loads alongside the islands,
 * and a shopper may act on an island that was quicker. The behaviour takes these when it
 * starts; after that nothing is kept. A few only: the first moments of a page.
 */
let early: TrackDetail[] | undefined = [];
const earlyMax = 20;

export function takeEarlyEvents(): TrackDetail[] {
  const taken = early ?? [];
  early = undefined;
  return taken;
}

export function track<E extends AnalyticsEventName>(
  from: Element | Document,
  event: E,
  properties: AnalyticsPropertiesOf<E> = {},
): void {
  const clean: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (value !== undefined) clean[key] = value as string | number | boolean;
  }
  const detail: TrackDetail = { event, properties: clean };
  // The behaviour cancels the event to say it took it.
  const heard = !from.dispatchEvent(
    new CustomEvent<TrackDetail>(analyticsEventType, { bubbles: true, cancelable: true, detail }),
  );
  if (!heard && early && early.length < earlyMax) early.push(detail);
}
