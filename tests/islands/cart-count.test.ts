// @vitest-environment happy-dom
import { screen } from "@testing-library/dom";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { cartStore } from "../../islands/cart/cart-store.ts";
import * as cartCount from "../../islands/cart-count/cart-count.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { testShop } from "../support/app.ts";
import { closeExamples, renderExample } from "../support/examples.ts";
import { shopper } from "../support/shopper.ts";

/** The pattern library's badge: the page's own count, an empty cart's. */
async function render(locale: "nl" | "de" = "nl"): Promise<HTMLElement> {
  const [badge] = await renderExample("cart-count", "default", locale);
  if (!badge) throw new Error("the example rendered no badge");
  return badge;
}

let unmount: (() => void) | undefined;
afterAll(closeExamples);
afterEach(() => {
  unmount?.();
  unmount = undefined;
  document.body.innerHTML = "";
});

describe("the cart-count island", () => {
  it("keeps the server's text until the cart changes, and starts the cart from its count", async () => {
    cartStore.getState().setCount(7);
    const badge = await render();
    unmount = cartCount.mount(badge);
    expect(badge.textContent).toBe("0 artikelen");
    expect(cartStore.getState().count).toBe(0);
  });

  it("when another island changes the cart, shows the new count in Dutch with the right plural", async () => {
    unmount = cartCount.mount(await render());
    cartStore.getState().setCount(1);
    expect(screen.getByText("1 artikel")).toBeTruthy();
    cartStore.getState().setCount(1234);
    expect(screen.getByText("1.234 artikelen")).toBeTruthy();
    expect(document.querySelector<HTMLElement>('[data-island="cart-count"]')?.dataset.count).toBe("1234");
  });

  it("speaks German on German pages", async () => {
    unmount = cartCount.mount(await render("de"));
    cartStore.getState().setCount(3);
    expect(screen.getByText("3 Artikel")).toBeTruthy();
  });

  it("never shows a negative or fractional count", async () => {
    unmount = cartCount.mount(await render());
    cartStore.getState().setCount(5);
    cartStore.getState().setCount(-2);
    expect(screen.getByText("0 artikelen")).toBeTruthy();
    cartStore.getState().setCount(2.7);
    expect(screen.getByText("2 artikelen")).toBeTruthy();
  });

  it("without its words keeps the server's text, is marked failed and reported once, naming the hook", async () => {
    const badge = await render();
    const props = JSON.parse(badge.dataset.props ?? "{}");
    badge.dataset.props = JSON.stringify({ count: props.count });
    const report = vi.fn();
    const hook = { kind: "island", name: "cart-count", react: false, load: async () => cartCount } as const;
    await createRuntime([hook], document, report).scan(document);
    expect(badge.dataset.islandState).toBe("failed");
    expect(badge.textContent).toBe("0 artikelen");
    expect(report).toHaveBeenCalledTimes(1);
    expect(String(report.mock.calls[0]?.[0])).toMatch(/"cart-count".*texts/);
  });

  describe("on a page restored from the back/forward cache", () => {
    /** The shop's real count route answers the island's fetch, with this shopper's cookies. */
    async function shopWithCart(quantity: string) {
      const shop = await testShop();
      const s = await shopper(shop.app);
      const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity };
      expect((await s.post("/winkelwagen/inhoud", book)).statusCode).toBe(303);
      const asked: string[] = [];
      vi.spyOn(window, "fetch").mockImplementation(async (input) => {
        const url = String(input);
        asked.push(url);
        const res = await shop.app.inject({ url, headers: { cookie: s.cookie() } });
        return new Response(res.body, {
          status: res.statusCode,
          headers: { "content-type": "application/json" },
        });
      });
      return { shop, asked };
    }
    const restored = (persisted: boolean) =>
      window.dispatchEvent(Object.assign(new Event("pageshow"), { persisted }));

    it("shows the cart's current count, asked of the server once, after the cart changed elsewhere", async () => {
      const { shop, asked } = await shopWithCart("3");
      try {
        const badge = await render();
        unmount = cartCount.mount(badge);
        expect(badge.textContent).toBe("0 artikelen");
        restored(true);
        await vi.waitFor(() => expect(badge.dataset.count).toBe("3"));
        expect(badge.textContent).toBe("3 artikelen");
        expect(asked).toEqual(["/api/cart-count"]);
      } finally {
        vi.restoreAllMocks();
        await shop.close();
      }
    });

    it("asks nothing on an ordinary load's pageshow", async () => {
      const { shop, asked } = await shopWithCart("2");
      try {
        const badge = await render();
        unmount = cartCount.mount(badge);
        restored(false);
        await new Promise((resolve) => setTimeout(resolve, 0));
        expect(asked).toEqual([]);
        expect(badge.textContent).toBe("0 artikelen");
      } finally {
        vi.restoreAllMocks();
        await shop.close();
      }
    });
  });
});
