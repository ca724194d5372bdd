/**
 * A toggle-tip (island: tooltip). Without JavaScript it is a native <details>. With it,
 * the summary gives way to a real button (its accessible name and expanded state) that
 * shows and hides the tip; the tip also closes on a click elsewhere, its close button,
 * Escape, a window resize and a change of the page's height, only one is open at a time,
 * and it stays inside the screen. Its text is re-announced when it opens (a status
 * region), as a toggle-tip should be.
 */
export { contract } from "./contract.ts";

const margin = 8;
let openTip: { close(): void } | undefined;
let count = 0;

export function mount(element: HTMLElement): () => void {
  if (!(element instanceof HTMLDetailsElement))
    throw new Error("tooltip: the island element must be a <details>");
  const details = element;
  const doc = details.ownerDocument;
  const view = doc.defaultView;
  const summary = details.querySelector<HTMLElement>(":scope > summary");
  const bubble = details.querySelector<HTMLElement>(".tooltip__bubble");
  const text = details.querySelector<HTMLElement>("[data-tooltip-text]");
  const closeButton = details.querySelector<HTMLButtonElement>("[data-tooltip-close]");
  if (!view || !summary || !bubble || !text) throw new Error("tooltip: summary, bubble or text is missing");
  const words = text.textContent ?? "";

  // The details stays open for good; the button decides whether the tip shows.
  const toggle = doc.createElement("button");
  toggle.type = "button";
  toggle.className = summary.className;
  toggle.append(...[...summary.childNodes].map((node) => node.cloneNode(true)));
  bubble.id ||= `tooltip-${++count}`;
  toggle.setAttribute("aria-controls", bubble.id);
  toggle.setAttribute("aria-expanded", "false");
  summary.after(toggle);
  details.open = true;
  bubble.hidden = true;
  text.setAttribute("role", "status");
  if (closeButton) closeButton.hidden = false;

  let isOpen = false;
  let watchedHeight = 0;
  let watchedSize = { width: 0, height: 0 };
  const pageHeight = () => doc.documentElement.scrollHeight;

  /** Keeps the bubble inside the screen: it may shift sideways, never past either edge. */
  const place = () => {
    bubble.style.setProperty("--tooltip-shift", "0px");
    const rect = bubble.getBoundingClientRect();
    const width = doc.documentElement.clientWidth;
    let shift = 0;
    if (rect.right > width - margin) shift = width - margin - rect.right;
    if (rect.left + shift < margin) shift = margin - rect.left;
    bubble.style.setProperty("--tooltip-shift", `${Math.round(shift)}px`);
  };

  const handle = {
    open() {
      if (openTip && openTip !== handle) openTip.close();
      openTip = handle;
      isOpen = true;
      bubble.hidden = false;
      toggle.setAttribute("aria-expanded", "true");
      details.dataset.tooltipState = "open";
      place();
      watchedHeight = pageHeight();
      watchedSize = { width: view.innerWidth, height: view.innerHeight };
      // Emptied and refilled, so screen readers announce the text now.
      text.textContent = "";
      view.requestAnimationFrame(() => {
        text.textContent = words;
      });
    },
    close(returnFocus = false) {
      if (!isOpen) return;
      isOpen = false;
      bubble.hidden = true;
      toggle.setAttribute("aria-expanded", "false");
      details.dataset.tooltipState = "closed";
      if (openTip === handle) openTip = undefined;
      if (returnFocus) toggle.focus();
    },
  };

  const onToggle = () => (isOpen ? handle.close() : handle.open());
  const onDocumentClick = (event: MouseEvent) => {
    if (isOpen && !details.contains(event.target as Node)) handle.close();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Escape" && isOpen) handle.close(details.contains(doc.activeElement));
  };
  const onResize = () => {
    if (view.innerWidth !== watchedSize.width || view.innerHeight !== watchedSize.height) handle.close();
  };
  const onClose = () => handle.close(true);
  // The page growing or shrinking (content loading, a section opening) moves what the tip points at.
  const heightWatcher =
    "ResizeObserver" in view
      ? new view.ResizeObserver(() => {
          if (isOpen && Math.abs(pageHeight() - watchedHeight) > 1) handle.close();
        })
      : undefined;
  heightWatcher?.observe(doc.body);

  toggle.addEventListener("click", onToggle);
  doc.addEventListener("click", onDocumentClick);
  doc.addEventListener("keydown", onKey);
  view.addEventListener("resize", onResize);
  closeButton?.addEventListener("click", onClose);
  details.dataset.tooltipState = "closed";

  return () => {
    toggle.removeEventListener("click", onToggle);
    doc.removeEventListener("click", onDocumentClick);
    doc.removeEventListener("keydown", onKey);
    view.removeEventListener("resize", onResize);
    closeButton?.removeEventListener("click", onClose);
    heightWatcher?.disconnect();
    toggle.remove();
    bubble.hidden = false;
    details.open = false;
    delete details.dataset.tooltipState;
    if (closeButton) closeButton.hidden = true;
  };
}
