import { resetSummary, showField, showSummary } from "./display.ts";
import { checkField, controlsOf, type FieldControl, type FieldResult } from "./validator.ts";

/** Forms the shopper tried to submit: from then on, fields with an error re-check as they type. */
const attempted = new WeakSet<HTMLFormElement>();

/** A submit button that opts out of validation (a "back" or "cancel" button). */
export function skipsValidation(submitter: Element | null | undefined): boolean {
  return Boolean(
    submitter && (submitter.hasAttribute("formnovalidate") || submitter.classList.contains("cancel")),
  );
}

/**
 * Validates every field of the form; shows messages, the summary, and moves focus to
 * the summary when something is wrong. Waits for remote checks that are still running.
 */
export async function validateForm(form: HTMLFormElement): Promise<boolean> {
  attempted.add(form);
  const results = await Promise.all(controlsOf(form).map((control) => checkField(form, control)));
  for (const result of results) showField(form, result);
  const invalid = results.filter((r) => r.message !== undefined);
  if (invalid.length === 0) {
    resetSummary(form);
    return true;
  }
  const summary = showSummary(form, results);
  (summary ?? invalid[0]?.control)?.focus();
  return false;
}

export function wasAttempted(form: HTMLFormElement): boolean {
  return attempted.has(form);
}

/** Re-checks one field as the shopper corrects it; remote checks wait for a pause in typing. */
export function liveCheck(form: HTMLFormElement, control: FieldControl, delayMs: number): void {
  const timers = liveTimers.get(control);
  if (timers) clearTimeout(timers);
  const run = () => {
    checkField(form, control)
      .then((result: FieldResult) => showField(form, result))
      .catch(() => {});
  };
  if (delayMs === 0) run();
  else liveTimers.set(control, setTimeout(run, delayMs));
}

const liveTimers = new WeakMap<Element, ReturnType<typeof setTimeout>>();
