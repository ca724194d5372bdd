import type { FieldControl, FieldResult } from "./validator.ts";

/**
 * Shows validation results the GOV.UK way: the message inside the field's
 * [data-valmsg-for] element (tied with aria-describedby), aria-invalid on the field,
 * and on submit a summary at the top linking to each field.
 */

function messageElement(form: HTMLFormElement, name: string): HTMLElement | null {
  return form.querySelector<HTMLElement>(`[data-valmsg-for="${CSS.escape(name)}"]`);
}

function setDescribedBy(control: FieldControl, id: string, on: boolean): void {
  const ids = new Set((control.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean));
  if (on) ids.add(id);
  else ids.delete(id);
  if (ids.size) control.setAttribute("aria-describedby", [...ids].join(" "));
  else control.removeAttribute("aria-describedby");
}

export function showField(form: HTMLFormElement, { control, message }: FieldResult): void {
  const invalid = message !== undefined;
  control.classList.toggle("input-validation-error", invalid);
  control.classList.toggle("valid", !invalid);
  control.setAttribute("aria-invalid", String(invalid));
  control.closest(".form-group")?.classList.toggle("form-group--error", invalid);
  const target = messageElement(form, control.name);
  if (!target) return;
  target.classList.toggle("field-validation-error", invalid);
  target.classList.toggle("field-validation-valid", !invalid);
  if (!target.id) target.id = `${control.id || control.name}-error`;
  setDescribedBy(control, target.id, invalid);
  if (target.dataset.valmsgReplace === "false") return;
  target.textContent = "";
  if (invalid) {
    const prefix = form.dataset.errorPrefix;
    if (prefix) {
      const hidden = document.createElement("span");
      hidden.className = "visually-hidden";
      hidden.textContent = `${prefix} `;
      target.append(hidden);
    }
    target.append(message);
  }
}

export function showSummary(form: HTMLFormElement, results: FieldResult[]): HTMLElement | null {
  const summary = form.querySelector<HTMLElement>('[data-valmsg-summary="true"]');
  if (!summary) return null;
  const list = summary.querySelector("ul") ?? summary.appendChild(document.createElement("ul"));
  list.textContent = "";
  for (const { control, message } of results) {
    if (message === undefined) continue;
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#${control.id}`;
    link.textContent = message;
    // Moving focus to the field, not just scrolling to it, is what the link promises.
    link.addEventListener("click", (event) => {
      event.preventDefault();
      control.focus();
    });
    item.append(link);
    list.append(item);
  }
  summary.classList.remove("validation-summary-valid");
  summary.classList.add("validation-summary-errors");
  return summary;
}

export function resetSummary(form: HTMLFormElement): void {
  const summary = form.querySelector<HTMLElement>('[data-valmsg-summary="true"]');
  if (!summary) return;
  summary.classList.add("validation-summary-valid");
  summary.classList.remove("validation-summary-errors");
  summary.querySelector("ul")?.replaceChildren();
}
