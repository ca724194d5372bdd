import { tabletQuery } from "../../server/domain/breakpoints.ts";
import { lockScroll } from "../runtime/scroll-lock.ts";

export { contract } from "./contract.ts";

const focusable = "a[href], button:not([hidden]):not([disabled]), summary";

/**
 * The header's menu as a drawer, at 725 px and below: the native <details> keeps its open
 * state (and works on its own without JavaScript); with this behaviour opening it also
 * locks the page's scroll, moves focus into the drawer and keeps it there, and Escape, the
 * close button or a tap beside the drawer closes it, focus back on the menu button. Above
 * 725 px the menu's contents are the header's bar (CSS) and the drawer never opens.
 */
export function start(doc: Document): void {
  const menu = doc.querySelector<HTMLDetailsElement>("details[data-site-menu]");
  const view = doc.defaultView;
  const button = menu?.querySelector<HTMLElement>("summary");
  const panel = menu?.querySelector<HTMLElement>(".site-menu__panel");
  if (!menu || !view || !button || !panel) return;
  const close = menu.querySelector<HTMLButtonElement>("[data-site-menu-close]");
  const compact = view.matchMedia?.(tabletQuery);
  let unlock: (() => void) | undefined;

  menu.dataset.drawer = "";
  button.setAttribute("aria-expanded", String(menu.open));
  if (close) close.hidden = false;

  const items = () => [...panel.querySelectorAll<HTMLElement>(focusable)];

  const open = () => {
    menu.open = true;
    button.setAttribute("aria-expanded", "true");
    // A dialog only while it is the drawer: above 725 px the same list is the header's bar.
    panel.setAttribute("role", "dialog");
    panel.setAttribute("aria-modal", "true");
    panel.setAttribute("aria-label", button.textContent?.trim() ?? "");
    unlock ??= lockScroll(doc);
    (items()[0] ?? panel).focus();
  };
  const shut = (returnFocus = true) => {
    if (!menu.open && !unlock) return;
    menu.open = false;
    button.setAttribute("aria-expanded", "false");
    for (const name of ["role", "aria-modal", "aria-label"]) panel.removeAttribute(name);
    unlock?.();
    unlock = undefined;
    if (returnFocus) button.focus();
  };

  button.addEventListener("click", (event) => {
    // The bar above 725 px has no menu button to press; below it the drawer takes over.
    event.preventDefault();
    if (menu.open) shut();
    else open();
  });
  close?.addEventListener("click", () => shut());
  // A tap on the backdrop (the menu's own box beside the drawer) closes it.
  menu.addEventListener("click", (event) => {
    if (event.target === menu) shut();
  });
  menu.addEventListener("keydown", (event) => {
    if (!menu.open) return;
    if (event.key === "Escape") {
      event.preventDefault();
      shut();
      return;
    }
    if (event.key !== "Tab") return;
    const inside = items();
    const first = inside[0];
    const last = inside[inside.length - 1];
    if (!first || !last) return;
    const active = doc.activeElement;
    if (event.shiftKey && (active === first || !panel.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  });
  // Widened past 725 px with the drawer open: the bar shows everything, nothing stays locked.
  compact?.addEventListener?.("change", (event) => {
    if (!event.matches) shut(false);
  });
  // Leaving the page with the drawer open: a page restored from the back/forward cache shows it closed.
  view.addEventListener("pagehide", () => shut(false));
}
