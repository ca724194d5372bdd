// @vitest-environment happy-dom
import { fireEvent, getByLabelText, getByRole } from "@testing-library/dom";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { selectionStore } from "../../islands/product/selection-store.ts";
import * as productOptions from "../../islands/product-options/product-options.ts";
import { mount } from "../../islands/product-options/product-options.ts";
import { flushPageState } from "../../islands/runtime/history-state.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { shareLinks } from "../../server/domain/share-links.ts";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
/** The real product pages, as the server renders them. */
const pages = new Map<string, string>();
beforeAll(async () => {
  shop = await testShop();
  for (const url of [
    "/assortiment/fotoboeken/exclusief-fotoboek",
    "/sortiment/fotobuecher/exklusives-fotobuch",
    "/assortiment/wanddecoratie/foto-op-canvas?orientatie=liggend&formaat=60x40",
    "/assortiment/fotoboeken/exclusief-fotoboek?orientatie=schuin",
  ]) {
    pages.set(url, (await shop.app.inject({ url })).body);
  }
});
afterAll(() => shop.close());

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  flushPageState();
  document.body.innerHTML = "";
});

/**
 * Renders the page and mounts the island. `before` runs first, on the server's markup:
 * what the browser does before scripts run (restoring form controls after Back), and
 * `state` is the history entry's state as Back brings it.
 */
function open(url: string, before?: (element: HTMLElement) => void, state: unknown = null): HTMLElement {
  const html = pages.get(url) ?? "";
  document.documentElement.lang = /<html lang="(\w+)"/.exec(html)?.[1] ?? "nl";
  // The head's title as the browser reads it (entities decoded), without loading the head's stylesheets.
  const title = document.createElement("template");
  title.innerHTML = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";
  document.title = title.content.textContent ?? "";
  document.body.innerHTML = html.slice(html.indexOf("<body>") + 6, html.indexOf("</body>"));
  window.history.replaceState(state, "", url);
  const element = document.querySelector<HTMLElement>('[data-island="product-options"]');
  if (!element) throw new Error("no product-options island");
  before?.(element);
  unmount = mount(element);
  return element;
}

const choose = (select: HTMLSelectElement, value: string) => {
  select.value = value;
  fireEvent.change(select);
};

describe("the product options, with JavaScript", () => {
  it("start from what the server rendered, without touching the address", () => {
    open("/assortiment/fotoboeken/exclusief-fotoboek");
    expect(window.location.search).toBe("");
    expect(selectionStore.getState().selection).toMatchObject({
      orientation: "landscape",
      sizeId: "30x21",
      frontId: "photobook-exclusive-landscape",
    });
  });

  it("offer only the new orientation's sizes, keeping the size turned a quarter", () => {
    const element = open("/assortiment/fotoboeken/exclusief-fotoboek");
    const orientation = getByLabelText(element, "Oriëntatie") as HTMLSelectElement;
    const size = getByLabelText(element, "Formaat") as HTMLSelectElement;
    choose(orientation, "staand");
    expect([...size.options].map((o) => o.value)).toEqual(["21x30"]);
    expect(size.value).toBe("21x30");
    expect(window.location.search).toBe("?orientatie=staand&formaat=21x30");
    expect(selectionStore.getState().selection?.frontId).toBe("photobook-exclusive-portrait");
  });

  it("update the price, the cart form and the language link for the chosen size", () => {
    const element = open("/assortiment/fotoboeken/exclusief-fotoboek");
    choose(getByLabelText(element, "Formaat") as HTMLSelectElement, "40x30");
    expect(element.querySelector("[data-product-price]")?.textContent?.replace(/\s/g, " ")).toBe("€ 74,99");
    expect(element.querySelector<HTMLInputElement>('input[name="size"]')?.value).toBe("40x30");
    expect(element.querySelector<HTMLInputElement>('input[name="orientation"]')?.value).toBe("landscape");
    expect(document.querySelector('.language-switcher a[hreflang="de"]')?.getAttribute("href")).toBe(
      "/sortiment/fotobuecher/exklusives-fotobuch?ausrichtung=querformat&format=40x30",
    );
  });

  it("say when a size cannot be ordered for now, and disable the button", () => {
    const element = open("/assortiment/wanddecoratie/foto-op-canvas?orientatie=liggend&formaat=60x40");
    const button = element.querySelector<HTMLButtonElement>("[data-product-submit]");
    expect(button?.disabled).toBe(false);
    choose(getByLabelText(element, "Formaat") as HTMLSelectElement, "90x60");
    expect(element.querySelector("[data-product-availability]")?.textContent).toContain(
      "tijdelijk niet leverbaar",
    );
    expect(button?.disabled).toBe(true);
    expect(getByLabelText(element, "Formaat").textContent).toContain("90x60 cm (niet leverbaar)");
  });

  it("point the share links and the browser's own share at the chosen option", () => {
    const element = open("/assortiment/fotoboeken/exclusief-fotoboek");
    const share = document.querySelector<HTMLElement>('[data-island="share"]') as HTMLElement;
    const before = share.dataset.shareUrl ?? "";
    expect(before).toMatch(
      /^http:\/\/localhost(:\d+)?\/assortiment\/fotoboeken\/exclusief-fotoboek\?orientatie=liggend&formaat=30x21$/,
    );
    choose(getByLabelText(element, "Formaat") as HTMLSelectElement, "40x30");

    // The server's origin stays; only the option's address is new.
    const url = `${new URL(before).origin}/assortiment/fotoboeken/exclusief-fotoboek?orientatie=liggend&formaat=40x30`;
    expect(share.dataset.shareUrl).toBe(url);
    const expected = shareLinks({
      url,
      title: share.dataset.shareTitle ?? "",
      text: share.dataset.shareText,
    });
    expect(
      [...share.querySelectorAll<HTMLAnchorElement>("a[data-analytics-network]")].map((a) => [
        a.dataset.analyticsNetwork,
        a.getAttribute("href"),
      ]),
    ).toEqual(expected.map((l) => [l.network, l.href]));
    expect(getByRole(share, "link", { name: /Facebook/ }).getAttribute("href")).toContain(
      encodeURIComponent("formaat=40x30"),
    );
  });

  it("keep the page title naming the chosen option, as the server names it", () => {
    const element = open("/assortiment/fotoboeken/exclusief-fotoboek");
    expect(document.title).toBe("Exclusief fotoboek – Liggend, 30x21 cm | Fotohoek");
    choose(getByLabelText(element, "Oriëntatie") as HTMLSelectElement, "staand");
    expect(document.title).toBe("Exclusief fotoboek – Staand, 21x30 cm | Fotohoek");
  });

  it("when the address named an unknown option: drop the notice once the shopper chooses one", () => {
    const element = open("/assortiment/fotoboeken/exclusief-fotoboek?orientatie=schuin");
    const notice = () => document.querySelector("[data-product-notice]");
    expect(notice()?.textContent).toBe(
      "Deze uitvoering kennen we niet. We tonen je daarom onze aanbevolen uitvoering.",
    );
    choose(getByLabelText(element, "Formaat") as HTMLSelectElement, "40x30");
    expect(notice()).toBeNull();
    expect(document.title).toBe("Exclusief fotoboek – Liggend, 40x30 cm | Fotohoek");
  });

  it("speak German on the German page", () => {
    const element = open("/sortiment/fotobuecher/exklusives-fotobuch");
    choose(getByLabelText(element, "Ausrichtung") as HTMLSelectElement, "quadratisch");
    expect(window.location.search).toBe("?ausrichtung=quadratisch&format=30x30");
    expect(element.querySelector("[data-product-price]")?.textContent?.replace(/\s/g, " ")).toBe("59,99 €");
  });
});

describe("the product options after Back or Forward", () => {
  const book = "/assortiment/fotoboeken/exclusief-fotoboek";
  const price = (element: HTMLElement) =>
    element.querySelector("[data-product-price]")?.textContent?.replace(/\s/g, " ");
  const selects = (element: HTMLElement) => ({
    orientation: getByLabelText(element, "Oriëntatie") as HTMLSelectElement,
    size: getByLabelText(element, "Formaat") as HTMLSelectElement,
  });

  it("keep each choice in the history entry, beside the address", () => {
    const element = open(book);
    choose(selects(element).orientation, "staand");
    flushPageState();
    expect(window.history.state).toEqual({
      fotohoek: { "product-options": { orientation: "portrait", size: "21x30" } },
    });
    expect(window.location.search).toBe("?orientatie=staand&formaat=21x30");
  });

  it("come back as the history entry kept them, with their sizes, price, fields and address", () => {
    const element = open(book, undefined, {
      fotohoek: { "product-options": { orientation: "portrait", size: "21x30" } },
    });
    const { orientation, size } = selects(element);
    expect(orientation.value).toBe("staand");
    expect([...size.options].map((o) => o.value)).toEqual(["21x30"]);
    expect(price(element)).toBe("€ 49,99");
    expect(element.querySelector<HTMLInputElement>('input[name="orientation"]')?.value).toBe("portrait");
    expect(window.location.search).toBe("?orientatie=staand&formaat=21x30");
    expect(selectionStore.getState().selection).toMatchObject({
      frontId: "photobook-exclusive-portrait",
      choice: "Staand, 21x30 cm",
      price: expect.stringMatching(/^€\s49,99$/),
      available: true,
    });
  });

  it("follow a size the browser restored into its select, rather than show another size's price", () => {
    const element = open(book, (el) => {
      selects(el).size.value = "40x30";
    });
    expect(price(element)).toBe("€ 74,99");
    expect(element.querySelector<HTMLInputElement>('input[name="size"]')?.value).toBe("40x30");
    expect(window.location.search).toBe("?orientatie=liggend&formaat=40x30");
  });

  it("offer the sizes of an orientation the browser restored, keeping the size as near as it can", () => {
    const element = open(book, (el) => {
      selects(el).orientation.value = "staand";
    });
    const { size } = selects(element);
    expect([...size.options].map((o) => o.value)).toEqual(["21x30"]);
    expect(price(element)).toBe("€ 49,99");
    expect(selectionStore.getState().selection?.frontId).toBe("photobook-exclusive-portrait");
  });

  it("ignore a kept choice the product no longer has, and show the server's", () => {
    const element = open(book, undefined, {
      fotohoek: { "product-options": { orientation: "portrait", size: "99x99" } },
    });
    expect(selects(element).size.value).toBe("30x21");
    expect(window.location.search).toBe("");
  });

  it("make the page agree with the selects again when it comes back from the back/forward cache", () => {
    const element = open(book);
    const { size } = selects(element);
    // The cache kept the page as it was, but this select says otherwise (no change event came).
    size.value = "40x30";
    // happy-dom's PageTransitionEvent is a plain Event, without `persisted`.
    const pageshow = (persisted: boolean) => Object.assign(new Event("pageshow"), { persisted });
    window.dispatchEvent(pageshow(false));
    expect(price(element)).toBe("€ 49,99");
    window.dispatchEvent(pageshow(true));
    expect(price(element)).toBe("€ 74,99");
    expect(window.location.search).toBe("?orientatie=liggend&formaat=40x30");
  });
});

describe("product options whose markup breaks their contract", () => {
  it("without the size select keep the plain form, are marked failed and reported once, naming the hook", async () => {
    const html = pages.get("/assortiment/fotoboeken/exclusief-fotoboek") ?? "";
    document.body.innerHTML = html.slice(html.indexOf("<body>") + 6, html.indexOf("</body>"));
    const element = document.querySelector<HTMLElement>('[data-island="product-options"]') as HTMLElement;
    element.querySelector("[data-product-size]")?.remove();
    const report = vi.fn();
    const hook = {
      kind: "island",
      name: "product-options",
      react: false,
      load: async () => productOptions,
    } as const;
    await createRuntime([hook], document, report).scan(document);
    expect(element.dataset.islandState).toBe("failed");
    // The product page has other hooks, which this one-hook registry does not know.
    const ours = report.mock.calls
      .map(([message]) => String(message))
      .filter((m) => m.includes('"product-options"'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(/data-product-size/);
  });
});
