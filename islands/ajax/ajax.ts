import { skipsValidation, validateForm } from "../validation/validate-form.ts";
import { insert, modeOf } from "./insert.ts";
import { buildFetch } from "./request.ts";

export { contract } from "./contract.ts";

/**
 * Ajax links and forms (unobtrusive-ajax attributes): a[data-ajax="true"] and
 * form[data-ajax="true"] send their request in the background and put the answer into
 * every element matched by data-ajax-update, by data-ajax-mode. Without JavaScript the
 * same link navigates and the same form submits, to the same URL.
 *
 * A form with data-ajax-trigger="input" sends itself as the shopper types instead, and
 * submits as a plain form (typing.ts, fetched with the first keystroke in such a form).
 */

const busy = new WeakSet<Element>();

function status(doc: Document): HTMLElement | null {
  return doc.querySelector<HTMLElement>("[data-ajax-status]");
}

function announce(doc: Document, text: string | undefined): void {
  const region = status(doc);
  if (!region || !text) return;
  // Clearing first makes screen readers announce the same text twice in a row too.
  region.textContent = "";
  setTimeout(() => {
    region.textContent = text;
  }, 50);
}

function showFailure(doc: Document, element: Element): void {
  const text = status(doc)?.dataset.textFailed;
  if (!text) return;
  element.parentElement?.querySelector(":scope > .ajax-error")?.remove();
  const message = doc.createElement("p");
  message.className = "ajax-error";
  message.setAttribute("role", "alert");
  message.textContent = text;
  element.before(message);
}

function setBusy(element: Element, on: boolean): void {
  if (on) busy.add(element);
  else busy.delete(element);
  element.setAttribute("aria-busy", String(on));
  if (element instanceof HTMLFormElement) {
    for (const button of element.querySelectorAll<HTMLButtonElement | HTMLInputElement>(
      'button:not([type="button"]), input[type="submit"]',
    )) {
      // aria-disabled keeps the button focusable, so keyboard focus is not thrown away.
      button.setAttribute("aria-disabled", String(on));
    }
  }
  const loading = (element as HTMLElement).dataset.ajaxLoading;
  if (loading) for (const el of document.querySelectorAll<HTMLElement>(loading)) el.hidden = !on;
}

function focusAfterSwap(changed: Element[], failed: boolean): void {
  const scope = changed[0];
  if (!scope) return;
  const target = failed
    ? (scope.querySelector<HTMLElement>(
        ".validation-summary-errors, [role='alert'], [aria-invalid='true']",
      ) ?? scope)
    : scope;
  if (!(target instanceof HTMLElement)) return;
  if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) target.tabIndex = -1;
  target.focus();
}

async function run(element: HTMLElement, url: string, method: string, body?: FormData): Promise<void> {
  const doc = element.ownerDocument;
  const question = element.dataset.ajaxConfirm;
  if (question && !window.confirm(question)) return;

  setBusy(element, true);
  element.parentElement?.querySelector(":scope > .ajax-error")?.remove();
  try {
    const request = buildFetch({ url, method, body, csrfToken: element.dataset.ajaxCsrf });
    const response = await fetch(request.url, request.init);
    const invalid = response.status === 422;
    // Other refusals (429, 503) are shown when the server answered with the fragment itself:
    // it says what went wrong there, with everything typed kept.
    const fragment = response.headers.get("x-ajax-fragment") === "true";
    if (!response.ok && !invalid && !fragment) throw new Error(`HTTP ${response.status}`);
    const html = await response.text();
    const selector = element.dataset.ajaxUpdate;
    const targets = selector ? [...doc.querySelectorAll(selector)] : [];
    // Script responses are never inserted (unobtrusive-ajax did the same).
    const isScript = (response.headers.get("content-type") ?? "text/html").includes("javascript");
    const changed = isScript ? [] : insert(targets, html, modeOf(element.dataset.ajaxMode));
    focusAfterSwap(changed, !response.ok);
    const texts = status(doc)?.dataset;
    // A refusal's fragment carries its own alert; announcing "updated" over it would mislead.
    if (invalid) announce(doc, texts?.textInvalid);
    else if (response.ok) announce(doc, element.dataset.ajaxAnnounce ?? texts?.textUpdated);
  } catch {
    // A network error or a failing server: say so next to the form; what was typed stays.
    showFailure(doc, element);
    announce(doc, status(doc)?.dataset.textFailed);
  } finally {
    if (element.isConnected) setBusy(element, false);
    busy.delete(element);
  }
}

function plainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export function start(doc: Document): void {
  doc.addEventListener("click", (event) => {
    const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-ajax="true"]');
    // A click with a modifier opens a tab or window, as the shopper asked.
    if (!link || !plainClick(event)) return;
    event.preventDefault();
    if (busy.has(link)) return;
    void run(link, link.dataset.ajaxUrl || link.href, link.dataset.ajaxMethod || "GET");
  });

  doc.addEventListener("input", (event) => {
    const form = (event.target as Element | null)?.closest?.("form");
    if (form?.dataset.ajax === "true" && form.dataset.ajaxTrigger === "input")
      void import("./typing.ts").then((typing) => typing.typed(form));
  });

  doc.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.dataset.ajax !== "true") return;
    // A typing form sends itself as the shopper types; sending it is a plain submit.
    if (form.dataset.ajaxTrigger === "input") return;
    event.preventDefault();
    if (busy.has(form)) return;
    const submitter = event.submitter instanceof HTMLElement ? event.submitter : null;
    const body = new FormData(form, submitter);
    const send = () =>
      run(form, form.dataset.ajaxUrl || form.action, form.dataset.ajaxMethod || form.method || "GET", body);
    if (skipsValidation(submitter) || !form.querySelector('[data-val="true"]')) {
      void send();
      return;
    }
    busy.add(form);
    void validateForm(form).then((valid) => {
      busy.delete(form);
      if (valid) void send();
    });
  });
}
