// @vitest-environment happy-dom
import { screen } from "@testing-library/dom";
import { afterEach, describe, expect, it } from "vitest";
import { cartStore } from "../../islands/cart/cart-store.ts";
import { mount } from "../../islands/cart-count/cart-count.ts";

const nl = JSON.stringify({ one: "{count} artikel", other: "{count} artikelen" });
const de = JSON.stringify({ one: "{count} Artikel", other: "{count} Artikel" });

function render(lang: string, texts: string, count: number): HTMLElement {
  document.documentElement.lang = lang;
  document.body.innerHTML = `<a href="/winkelwagen/inhoud">Winkelwagen <span data-island="cart-count" data-count="${count}" data-texts='${texts}'>server text</span></a>`;
  return document.querySelector("[data-island]") as HTMLElement;
}

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  document.body.innerHTML = "";
});

describe("the cart-count island", () => {
  it("keeps the server's text until the cart changes", () => {
    unmount = mount(render("nl", nl, 2));
    expect(screen.getByText("server text")).toBeTruthy();
    expect(cartStore.getState().count).toBe(2);
  });

  it("when another island changes the cart, shows the new count in Dutch with the right plural", () => {
    unmount = mount(render("nl", nl, 0));
    cartStore.getState().setCount(1);
    expect(screen.getByText("1 artikel")).toBeTruthy();
    cartStore.getState().setCount(1234);
    expect(screen.getByText("1.234 artikelen")).toBeTruthy();
  });

  it("speaks German on German pages", () => {
    unmount = mount(render("de", de, 0));
    cartStore.getState().setCount(3);
    expect(screen.getByText("3 Artikel")).toBeTruthy();
  });

  it("never shows a negative or fractional count", () => {
    unmount = mount(render("nl", nl, 5));
    cartStore.getState().setCount(-2);
    expect(screen.getByText("0 artikelen")).toBeTruthy();
    cartStore.getState().setCount(2.7);
    expect(screen.getByText("2 artikelen")).toBeTruthy();
  });
});
