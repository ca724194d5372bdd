import { readProps } from "../runtime/props.ts";
import type { PaymentStatusProps } from "./contract.ts";

export { contract } from "./contract.ts";

/** The first wait, and the longest: 1 s, 2 s, 4 s … then every 30 s until the state is final. */
export const firstDelayMs = 1_000;
export const longestDelayMs = 30_000;

const messageSelector = "[data-payment-status-message]";

/**
 * The order page's payment part while a payment is open: asks the page for this part again
 * (its fragment, the same markup the server renders without JavaScript), replaces it when
 * the state changed, and stops once the state is final. A provider usually decides within
 * seconds, sometimes in minutes: the waits grow so an open page left alone costs little.
 */
export function mount(element: HTMLElement): () => void {
  let props = readProps<PaymentStatusProps>(element);
  let delay = firstDelayMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const controller = new AbortController();

  // One polite live region beside the part, kept for the page's life: the part's own markup
  // is replaced, and a region that is replaced is not read out.
  const announcer = document.createElement("p");
  announcer.className = "visually-hidden";
  announcer.setAttribute("role", "status");
  announcer.setAttribute("aria-live", "polite");
  element.after(announcer);

  const schedule = () => {
    if (stopped || props.final) return;
    timer = setTimeout(refresh, delay);
    delay = Math.min(delay * 2, longestDelayMs);
  };

  async function refresh() {
    try {
      const response = await fetch(props.url, {
        headers: { "X-Requested-With": "XMLHttpRequest", Accept: "text/html" },
        credentials: "same-origin",
        signal: controller.signal,
      });
      if (response.ok) replaceWith(await response.text());
    } catch {
      // Offline for a moment, or the page is going: try again after the next wait.
    }
    schedule();
  }

  function replaceWith(html: string) {
    if (stopped) return;
    const template = document.createElement("template");
    template.innerHTML = html;
    const next = template.content.querySelector<HTMLElement>('[data-island="payment-status"]');
    // Anything else (an error page, a login wall) is no answer: keep what is shown.
    if (!next?.querySelector(messageSelector)) return;
    const changed = next.dataset.state !== element.dataset.state;
    props = readProps<PaymentStatusProps>(next);
    element.dataset.props = next.dataset.props ?? "";
    if (!changed) return;
    if (next.dataset.state) element.dataset.state = next.dataset.state;
    // The heading's id names the state: the section's label and look follow it.
    for (const name of ["class", "aria-labelledby"]) {
      const value = next.getAttribute(name);
      if (value !== null) element.setAttribute(name, value);
    }
    element.replaceChildren(...next.childNodes);
    announcer.textContent = element.querySelector(messageSelector)?.textContent?.trim() ?? "";
  }

  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
    controller.abort();
    announcer.remove();
  };
}
