import { isFunnelViewRoute } from "../../server/domain/analytics-catalogue.ts";

export const viewBeaconEndpoint = "/analytics/view";

interface SpeculativeTiming {
  activationStart?: number;
  deliveryType?: string;
}

/**
 * Whether this page reached the shopper from a fetch made ahead of time: prerendered and
 * then shown (activationStart > 0), or prefetched and then opened (deliveryType).
 */
function fetchedAhead(view: Window): boolean {
  const [navigation] = view.performance?.getEntriesByType?.("navigation") ?? [];
  const timing = navigation as (PerformanceEntry & SpeculativeTiming) | undefined;
  return (timing?.activationStart ?? 0) > 0 || timing?.deliveryType === "navigational-prefetch";
}

/**
 * The server counts a funnel page's view as it answers, except when the browser fetched it
 * ahead (Sec-Purpose: prefetch): a page prerendered on hover may never be opened. Such a
 * page reports its view here, once the shopper opens it: a prerendered one on
 * prerenderingchange, never before; a prefetched one when it starts, which is when it is
 * shown. A page the server counted sends nothing, so no view counts twice.
 */
export function reportViewOnActivation(doc: Document, route: string, locale: string): void {
  const view = doc.defaultView;
  if (!view || !isFunnelViewRoute(route)) return;
  const send = () => {
    const body = new Blob([JSON.stringify({ route, locale, path: view.location.pathname })], {
      type: "application/json",
    });
    if (!view.navigator.sendBeacon?.(viewBeaconEndpoint, body)) {
      void view.fetch(viewBeaconEndpoint, { method: "POST", body, keepalive: true }).catch(() => {});
    }
  };
  if ((doc as Document & { prerendering?: boolean }).prerendering) {
    doc.addEventListener("prerenderingchange", send, { once: true });
  } else if (fetchedAhead(view)) {
    send();
  }
}
