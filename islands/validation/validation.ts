import { liveCheck, skipsValidation, validateForm, wasAttempted } from "./validate-form.ts";
import type { FieldControl } from "./validator.ts";

export { contract } from "./contract.ts";

/** Remote checks wait this long after the last key press. */
export const remoteDebounceMs = 400;

const passThrough = new WeakSet<HTMLFormElement>();

function isManaged(form: HTMLFormElement): boolean {
  return form.querySelector('[data-val="true"]') !== null;
}

/**
 * Validation for forms with data-val fields: on submit, then live on fields that had
 * an error. Ajax forms (data-ajax="true") validate through the ajax behaviour instead,
 * which calls validateForm before it sends.
 */
export function start(doc: Document): void {
  const manage = (root: ParentNode) => {
    for (const form of root.querySelectorAll("form")) if (isManaged(form)) form.noValidate = true;
  };
  manage(doc);
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) if (n instanceof Element) manage(n.parentElement ?? n);
  }).observe(doc.documentElement, { childList: true, subtree: true });

  doc.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !isManaged(form) || form.dataset.ajax === "true") return;
    if (passThrough.has(form)) {
      passThrough.delete(form);
      return;
    }
    if (skipsValidation(event.submitter)) return;
    event.preventDefault();
    const submitter = event.submitter;
    void validateForm(form).then((valid) => {
      if (!valid) return;
      passThrough.add(form);
      // A new task: when every check answers at once (no remote check, or only cached ones) this
      // runs while the browser is still dispatching the first submit event, and Chromium ignores
      // a requestSubmit() made then, so the form would never be sent.
      setTimeout(() => form.requestSubmit(submitter instanceof HTMLElement ? submitter : null), 0);
    });
  });

  const onChange = (event: Event, delay: (control: FieldControl) => number) => {
    const control = event.target as FieldControl;
    const form = control.form;
    if (!form || control.dataset.val !== "true" || !wasAttempted(form)) return;
    liveCheck(form, control, delay(control));
    // A remote check that reads this field (postcode by country) is re-asked too.
    for (const other of form.querySelectorAll<FieldControl>("[data-val-remote-additionalfields]")) {
      const names = (other.dataset.valRemoteAdditionalfields ?? "").split(",").map((n) => n.trim());
      if (other !== control && names.includes(control.name)) liveCheck(form, other, delay(other));
    }
  };
  doc.addEventListener("input", (e) =>
    onChange(e, (c) => (c.hasAttribute("data-val-remote") ? remoteDebounceMs : 0)),
  );
  doc.addEventListener("focusout", (e) => onChange(e, () => 0));
  doc.addEventListener("change", (e) => onChange(e, () => 0));
}
