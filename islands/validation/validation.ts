import { resolveOther } from "../../server/forms/rules.ts";
import { liveCheck, skipsValidation, validateForm, wasAttempted } from "./validate-form.ts";
import { type FieldControl, fieldValue } from "./validator.ts";

export { contract } from "./contract.ts";

/** Remote checks wait this long after the last key press. */
export const remoteDebounceMs = 400;

const passThrough = new WeakSet<HTMLFormElement>();

function isManaged(form: HTMLFormElement): boolean {
  return form.querySelector('[data-val="true"]') !== null;
}

/**
 * Validation for forms with data-val fields: on submit, and live as jQuery Validation does
 * (leaving a filled-in field, then typing in a field that shows an error). Ajax forms
 * (data-ajax="true") validate through the ajax behaviour instead, which calls validateForm
 * before it sends.
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

  /**
   * jQuery Validation's lazy timing: leaving a field checks it once it holds something (or the
   * shopper already tried to send the form), so an untouched required field stays quiet;
   * typing re-checks only a field that already shows an error, or after a first submit.
   */
  type When = (control: FieldControl, form: HTMLFormElement) => boolean;
  const onChange = (event: Event, delay: (control: FieldControl) => number, when: When) => {
    const control = event.target as FieldControl;
    const form = control.form;
    if (!form || !control.name) return;
    if (control.dataset.val === "true" && when(control, form)) liveCheck(form, control, delay(control));
    for (const other of form.querySelectorAll<FieldControl>(
      "[data-val-remote-additionalfields], [data-val-equalto-other]",
    )) {
      // A field already judged that reads this one is judged again: a remote check that sends
      // it (postcode by country), or a confirmation that repeats it.
      if (other === control || !(wasAttempted(form) || other.hasAttribute("aria-invalid"))) continue;
      const names = (other.dataset.valRemoteAdditionalfields ?? "").split(",").map((n) => n.trim());
      const repeated = other.dataset.valEqualtoOther;
      const repeats = repeated !== undefined && resolveOther(other.name, repeated) === control.name;
      if (names.includes(control.name) || repeats) liveCheck(form, other, delay(other));
    }
  };
  const attempted: When = (_control, form) => wasAttempted(form);
  doc.addEventListener("input", (e) =>
    onChange(
      e,
      (c) => (c.hasAttribute("data-val-remote") ? remoteDebounceMs : 0),
      (c, form) => wasAttempted(form) || c.getAttribute("aria-invalid") === "true",
    ),
  );
  doc.addEventListener("focusout", (e) =>
    onChange(
      e,
      () => 0,
      (c, form) => wasAttempted(form) || (fieldValue(form, c.name) ?? "") !== "",
    ),
  );
  doc.addEventListener("change", (e) => onChange(e, () => 0, attempted));
}
