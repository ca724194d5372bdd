// @vitest-environment happy-dom
import { fireEvent, screen } from "@testing-library/dom";
import { act } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { flushDelayMs } from "../../islands/analytics/analytics.ts";
import { track } from "../../islands/analytics/track.ts";
import { mount as mountFaq } from "../../islands/faq/faq.ts";
import { registry } from "../../islands/registry.ts";
import { flushPageState } from "../../islands/runtime/history-state.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { mount as mountTabs } from "../../islands/tabs/tabs.tsx";
import type { AnalyticsBatch } from "../../server/domain/analytics-event.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { closeExamples, exampleHtml, renderExample } from "../support/examples.ts";

/** What navigator.sendBeacon was given, as the server would read it. */
const beacons: AnalyticsBatch[] = [];
const pending: Promise<void>[] = [];
const sendBeacon = vi.fn((_url: string, body: Blob) => {
  pending.push(body.text().then((text) => void beacons.push(JSON.parse(text) as AnalyticsBatch)));
  return true;
});

/** Leaving the page sends what is queued; the batches as sent. */
async function sent(): Promise<AnalyticsBatch[]> {
  window.dispatchEvent(new Event("pagehide"));
  await Promise.all(pending);
  return beacons;
}
const events = async () => (await sent()).flatMap((b) => b.events);

let shop: TestShop;
const analytics = registry.find((hook) => hook.name === "analytics");
const productOptions = registry.find((hook) => hook.name === "product-options");
const stopNavigation = (event: Event) => event.preventDefault();
const reports: string[] = [];

/**
 * The real product page, with the analytics behaviour and the product-options island
 * started by the runtime as boot.ts does. Once for the file: a behaviour starts once per page.
 */
beforeAll(async () => {
  Object.defineProperty(window.navigator, "sendBeacon", { value: sendBeacon, configurable: true });
  shop = await testShop();
  const html = (await shop.app.inject({ url: "/assortiment/fotoboeken/exclusief-fotoboek" })).body;
  document.documentElement.lang = "nl";
  document.documentElement.dataset.route = "product";
  document.body.innerHTML = html.slice(html.indexOf("<body>") + 6, html.indexOf("</body>"));
  // An island that was quicker than the behaviour: its event waits for it.
  track(document.body, "share", { network: "early" });
  if (!analytics || !productOptions) throw new Error("registry without analytics or product-options");
  // Only these two hooks are started: the page's other islands are reported as unknown, and left alone.
  await createRuntime([analytics, productOptions], document, (message) => reports.push(message)).start();
  // Links and forms stay on this test page.
  window.addEventListener("click", stopNavigation);
  window.addEventListener("submit", stopNavigation);
});
afterAll(async () => {
  window.removeEventListener("click", stopNavigation);
  window.removeEventListener("submit", stopNavigation);
  await shop?.close();
  await closeExamples();
});
// Each test reads what it sent: whatever a test left queued goes out before the next.
afterEach(async () => {
  await sent();
});
beforeEach(() => {
  beacons.length = 0;
  sendBeacon.mockClear();
});

describe("the analytics behaviour", () => {
  it("sends what an island tracked before it started, and a click on [data-analytics] with its properties", async () => {
    const german = document.querySelector<HTMLAnchorElement>('.language-switcher a[hreflang="de"]');
    if (!german) throw new Error("no link to German");
    fireEvent.click(german);
    expect(await sent()).toEqual([
      {
        route: "product",
        locale: "nl",
        events: [
          { event: "share", properties: { network: "early" } },
          { event: "locale.switch", properties: { from: "nl", to: "de" } },
        ],
      },
    ]);
    expect(window.dataLayer).toContainEqual({ event: "locale.switch", from: "nl", to: "de" });
  });

  it("finds every counted element on the product page keeping its contract (a catalogue name)", () => {
    expect(document.querySelectorAll("[data-analytics]").length).toBeGreaterThan(10);
    expect(reports.filter((message) => message.includes('"analytics"'))).toEqual([]);
  });

  it("starts on every page with an island, not only where a link is counted", () => {
    const island = document.createElement("div");
    island.dataset.island = "faq";
    expect(analytics?.kind === "behaviour" && island.matches(analytics.selector)).toBe(true);
  });

  it("sends an option change, then add to cart with the option and quantity chosen at that moment", async () => {
    const orientation = document.querySelector<HTMLSelectElement>("[data-product-orientation]");
    const quantity = document.querySelector<HTMLInputElement>('.add-to-cart input[name="quantity"]');
    const add = document.querySelector<HTMLButtonElement>(".add-to-cart__submit");
    if (!orientation || !quantity || !add) throw new Error("product page without its form");
    orientation.value = "staand";
    fireEvent.change(orientation);
    quantity.value = "3";
    fireEvent.click(add);
    expect(await events()).toEqual([
      {
        event: "product.option_change",
        properties: { productId: "exclusive-photobook", option: "orientation", value: "portrait" },
      },
      {
        event: "cart.add",
        properties: {
          productId: "exclusive-photobook",
          orientation: "portrait",
          size: "21x30",
          quantity: "3",
        },
      },
    ]);
  });

  it("sends only the catalogue's names and each event's own properties", async () => {
    document.body.insertAdjacentHTML(
      "beforeend",
      '<p id="extra"><button type="button" data-analytics="made-up">x</button>' +
        '<button type="button" data-analytics="share" data-analytics-network="facebook" data-analytics-email="a@b.nl">y</button></p>',
    );
    for (const button of document.querySelectorAll("#extra button")) fireEvent.click(button);
    track(document.body, "made-up" as "share");
    expect(await events()).toEqual([{ event: "share", properties: { network: "facebook" } }]);
    document.getElementById("extra")?.remove();
  });

  it("sends a full batch at once, and the rest after a quiet moment", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      for (let i = 0; i < 21; i++)
        track(document.body, "carousel.move", { carousel: "related-products", index: i });
      expect(sendBeacon).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(flushDelayMs);
      expect(sendBeacon).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
    const batches = await sent();
    expect(batches.map((b) => b.events.length)).toEqual([20, 1]);
    expect(batches[1]?.events[0]).toEqual({
      event: "carousel.move",
      properties: { carousel: "related-products", index: 20 },
    });
  });
});

describe("islands that report what the shopper did", () => {
  let unmount: (() => void) | undefined;
  afterEach(() => {
    act(() => unmount?.());
    unmount = undefined;
    flushPageState();
    vi.unstubAllGlobals();
  });

  it("the FAQ list: a topic the shopper opens, by its id; not one closed again", async () => {
    const [root] = await renderExample("faq");
    if (!root) throw new Error("no faq example");
    unmount = mountFaq(root);
    const closed = [...root.querySelectorAll("details")].find((d) => !d.open);
    const summary = closed?.querySelector("summary");
    if (!closed || !summary) throw new Error("no closed topic");
    fireEvent.click(summary);
    closed.open = true;
    fireEvent.click(summary);
    expect(await events()).toEqual([
      { event: "faq.open", properties: { topic: closed.parentElement?.dataset.analyticsTopic } },
    ]);
    expect(closed.parentElement?.dataset.analyticsTopic).toMatch(/^[a-z-]+$/);
  });

  it("the tabs: a tab the shopper chooses", async () => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: false,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    document.body.innerHTML = await exampleHtml("tabs");
    act(() => {
      unmount = mountTabs(document.querySelector('[data-island="tabs"]') as HTMLElement);
    });
    act(() => {
      fireEvent.click(screen.getByRole("tab", { name: "Tweede" }));
    });
    expect(await events()).toEqual([{ event: "tabs.open", properties: { tab: "tweede", via: "tab" } }]);
  });
});
