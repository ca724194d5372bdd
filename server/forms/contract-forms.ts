import type { ContractRequestInput, ContractRequestKind, NoticeKind } from "../domain/contract-requests.ts";
import type { IsoDate } from "../domain/working-days.ts";
import type { Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import { emailField, nameField } from "./fields.ts";
import { defineForm, type FieldDefinition, type FieldError, type Form, type FormValues } from "./form.ts";

/**
 * The two public forms for the photo subscription (ADR 0103): cancelling (§ 312k BGB: who,
 * which contract, ordinary or extraordinary notice, for extraordinary the reason, and when)
 * and withdrawing (directive 2023/2673: who and which contract). Fields whose need depends on
 * another choice (the number, the reason, the day) are checked here after the form's rules.
 */

// The reason stays short enough for the draft cookie (contract-form-cookies.ts) whatever its script.
export const contractLimits = { subscriptionNumber: 40, reason: 500 };

/** Which contract: the one of the address typed, or the one with the number from the mails. */
export const contractChoices = ["address", "number"] as const;

const contractFields: FieldDefinition[] = [
  { ...nameField, label: "contractForms.fields.name" },
  { ...emailField, label: "contractForms.fields.email", hint: "contractForms.fields.emailHint" },
  {
    name: "contract",
    control: "select",
    label: "contractForms.fields.contract",
    options: contractChoices.map((value) => ({ value, label: `contractForms.contract.${value}` })),
    rules: [{ rule: "required" }],
  },
  {
    name: "subscriptionNumber",
    label: "contractForms.fields.subscriptionNumber",
    hint: "contractForms.fields.subscriptionNumberHint",
    autocomplete: "off",
    rules: [
      { rule: "maxlength", params: { max: contractLimits.subscriptionNumber } },
      {
        rule: "regex",
        params: { pattern: " *[A-Za-z0-9_-]+ *" },
        message: "contractForms.validation.subscriptionNumber",
      },
    ],
  },
];

export const cancelForm = defineForm({
  id: "cancel",
  fields: [
    ...contractFields,
    {
      name: "notice",
      control: "select",
      label: "contractForms.fields.notice",
      options: (["ordinary", "extraordinary"] as const).map((value) => ({
        value,
        label: `contractForms.notice.${value}`,
      })),
      rules: [{ rule: "required" }],
    },
    {
      name: "reason",
      control: "textarea",
      label: "contractForms.fields.reason",
      hint: "contractForms.fields.reasonHint",
      rules: [{ rule: "maxlength", params: { max: contractLimits.reason } }],
    },
    {
      name: "endOn",
      type: "date",
      label: "contractForms.fields.endOn",
      hint: "contractForms.fields.endOnHint",
      rules: [],
    },
  ],
});

export const withdrawForm = defineForm({ id: "withdraw", fields: contractFields });

export const contractForms: Record<ContractRequestKind, Form> = {
  cancel: cancelForm,
  withdraw: withdrawForm,
};

/** What a new form shows chosen. */
export const contractDefaults: Record<ContractRequestKind, FormValues> = {
  cancel: { contract: "address", notice: "ordinary" },
  withdraw: { contract: "address" },
};

/**
 * A day as typed: ISO (what <input type=date> sends), or day-month-year with dots, dashes or
 * slashes (a browser without a date picker). Undefined when it is no day on the calendar.
 */
export function dayTyped(value: string): IsoDate | undefined {
  const text = value.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  const local = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(text);
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : local
      ? [Number(local[3]), Number(local[2]), Number(local[1])]
      : [0, 0, 0];
  if (!year) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    return undefined;
  return date.toISOString().slice(0, 10);
}

/**
 * Every problem with a post of `kind`'s form: the form's own rules, then those that depend on
 * a choice. `today` is the day of receipt: an extraordinary notice cannot end the contract
 * before it arrived.
 */
export async function contractFormErrors(
  kind: ContractRequestKind,
  values: FormValues,
  t: Translate,
  locale: Locale,
  today: IsoDate,
): Promise<FieldError[]> {
  const errors = await contractForms[kind].validate(values, t, undefined, locale);
  const has = (field: string) => errors.some((e) => e.field === field);
  const blank = (field: string) => (values[field] ?? "").trim() === "";
  if (values.contract === "number" && blank("subscriptionNumber") && !has("subscriptionNumber"))
    errors.push({ field: "subscriptionNumber", message: t("contractForms.validation.numberNeeded") });
  if (kind === "cancel" && values.notice === "extraordinary") {
    if (blank("reason") && !has("reason"))
      errors.push({ field: "reason", message: t("contractForms.validation.reasonNeeded") });
    const day = dayTyped(values.endOn ?? "");
    if (blank("endOn")) errors.push({ field: "endOn", message: t("contractForms.validation.endOnNeeded") });
    else if (!day) errors.push({ field: "endOn", message: t("contractForms.validation.endOnDate") });
    else if (day < today) errors.push({ field: "endOn", message: t("contractForms.validation.endOnPast") });
  }
  // In the form's order, as the error summary lists them.
  const order = contractForms[kind].fields.map((f) => f.name);
  return errors.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
}

/** A post that passed contractFormErrors, as the request to record. */
export function contractRequestOf(
  kind: ContractRequestKind,
  values: FormValues,
  locale: Locale,
): ContractRequestInput {
  const text = (name: string) => (values[name] ?? "").trim();
  const extraordinary = kind === "cancel" && values.notice === "extraordinary";
  return {
    kind,
    locale,
    name: text("name"),
    email: text("email"),
    contractRef: values.contract === "number" ? text("subscriptionNumber") : undefined,
    notice: kind === "cancel" ? (values.notice as NoticeKind) : undefined,
    reason: extraordinary ? text("reason") : undefined,
    askedEndOn: extraordinary ? dayTyped(values.endOn ?? "") : undefined,
  };
}
