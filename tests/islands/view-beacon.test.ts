// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { reportViewOnActivation, viewBeaconEndpoint } from "../../islands/analytics/view-beacon.ts";

const beacons: Array<{ url: string; body: unknown }> = [];
const pending: Promise<void>[] = [];
const sendBeacon = vi.fn((url: string, body: Blob) => {
  pending.push(body.text().then((text) => void beacons.push({ url, body: JSON.parse(text) })));
  return true;
});
const sent = async () => {
  await Promise.all(pending);
  return beacons;
};

/** How the page reached the browser: its navigation entry and whether it is still prerendering. */
function arrived(timing: { activationStart?: number; deliveryType?: string }, prerendering = false) {
  Object.defineProperty(document, "prerendering", { value: prerendering, configurable: true });
  vi.spyOn(window.performance, "getEntriesByType").mockImplementation((type: string) =>
    type === "navigation"
      ? ([{ entryType: "navigation", ...timing }] as unknown as PerformanceEntryList)
      : [],
  );
}

beforeEach(() => {
  Object.defineProperty(window.navigator, "sendBeacon", { value: sendBeacon, configurable: true });
  window.history.replaceState(null, "", "/assortiment/fotoboeken/exclusief-fotoboek");
});
afterEach(() => {
  vi.restoreAllMocks();
  beacons.splice(0);
  pending.splice(0);
  sendBeacon.mockClear();
});

describe("the view beacon of a funnel page fetched ahead", () => {
  it("waits while the page is prerendered and is sent once, on activation", async () => {
    arrived({ activationStart: 0 }, true);
    reportViewOnActivation(document, "product", "nl");
    expect(sendBeacon).not.toHaveBeenCalled();
    Object.defineProperty(document, "prerendering", { value: false, configurable: true });
    document.dispatchEvent(new Event("prerenderingchange"));
    document.dispatchEvent(new Event("prerenderingchange"));
    expect(await sent()).toEqual([
      {
        url: viewBeaconEndpoint,
        body: { route: "product", locale: "nl", path: "/assortiment/fotoboeken/exclusief-fotoboek" },
      },
    ]);
  });

  it("is sent at start by a page that was prefetched or prerendered before its script ran", async () => {
    arrived({ deliveryType: "navigational-prefetch" });
    reportViewOnActivation(document, "product", "nl");
    arrived({ activationStart: 84 });
    reportViewOnActivation(document, "cartAddress", "nl");
    expect((await sent()).map((b) => (b.body as { route: string }).route)).toEqual([
      "product",
      "cartAddress",
    ]);
  });

  it("is never sent by a page the server counted (an ordinary load), nor by a page outside the funnel", async () => {
    arrived({ activationStart: 0, deliveryType: "" });
    reportViewOnActivation(document, "product", "nl");
    arrived({ activationStart: 84 }, true);
    reportViewOnActivation(document, "home", "nl");
    document.dispatchEvent(new Event("prerenderingchange"));
    expect(await sent()).toEqual([]);
  });
});
