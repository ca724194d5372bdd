import { ajaxUpdatedEvent } from "./events.ts";
import { insert, modeOf } from "./insert.ts";
import { buildFetch } from "./request.ts";

/**
 * Forms with data-ajax-trigger="input" (ajax.ts loads this on the first keystroke in
 * one): the form is sent in the background once typing pauses for data-ajax-debounce ms,
 * and the answer goes into its data-ajax-update targets, as for any ajax form. The
 * shopper is still typing, so focus stays in the field and nothing is announced (what
 * the answer means is for the page to say, after ajaxUpdatedEvent); a request that
 * fails does so quietly, since the form still submits as a plain form; and each new
 * request cancels the one still under way, so an old answer never replaces a newer one.
 */

const defaultPauseMs = 300;
const pending = new WeakMap<
  HTMLFormElement,
  { timer?: ReturnType<typeof setTimeout>; request?: AbortController }
>();

async function send(form: HTMLFormElement, signal: AbortSignal): Promise<void> {
  form.setAttribute("aria-busy", "true");
  try {
    const { url, init } = buildFetch({
      url: form.dataset.ajaxUrl || form.action,
      method: form.dataset.ajaxMethod || form.method || "GET",
      body: new FormData(form),
      csrfToken: form.dataset.ajaxCsrf,
    });
    const response = await fetch(url, { ...init, signal });
    if (!response.ok && response.headers.get("x-ajax-fragment") !== "true") return;
    // Script responses are never inserted, as for every ajax element.
    if ((response.headers.get("content-type") ?? "text/html").includes("javascript")) return;
    const html = await response.text();
    if (signal.aborted) return;
    const selector = form.dataset.ajaxUpdate;
    insert(
      selector ? [...form.ownerDocument.querySelectorAll(selector)] : [],
      html,
      modeOf(form.dataset.ajaxMode),
    );
    form.dispatchEvent(new CustomEvent(ajaxUpdatedEvent, { bubbles: true }));
  } catch {
    // No suggestions this time: nothing to say, the form itself still works.
  } finally {
    // An aborted request's successor is under way and busy in its place.
    if (!signal.aborted) form.setAttribute("aria-busy", "false");
  }
}

/** The shopper typed in the form: send it once they pause. */
export function typed(form: HTMLFormElement): void {
  const state = pending.get(form) ?? {};
  pending.set(form, state);
  clearTimeout(state.timer);
  const wanted = Number.parseInt(form.dataset.ajaxDebounce ?? "", 10);
  state.timer = setTimeout(
    () => {
      state.request?.abort();
      state.request = new AbortController();
      void send(form, state.request.signal);
    },
    wanted >= 0 ? wanted : defaultPauseMs,
  );
}
