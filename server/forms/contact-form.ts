import type { Locale } from "../i18n/locales.ts";
import type { ContactMessage } from "../store/contact-repository.ts";
import { defineForm, type FormValues } from "./form.ts";

/** What a shopper can ask about; the labels are contact.subjects.<value>. */
export const contactSubjects = ["order", "delivery", "photobook", "payment", "account", "other"] as const;
export type ContactSubject = (typeof contactSubjects)[number];

export const contactLimits = { name: 80, email: 254, orderNumber: 20, questionMin: 10, question: 4000 };

/**
 * The field a person never sees (it is off-screen and hidden from assistive technology),
 * but a form-filling robot does. A message with it filled in is answered as if sent, and dropped.
 */
export const honeypotField = "website";

// Text on one line: no control characters at all (a line break is how a header would be injected).
const singleLine = "[^\\u0000-\\u001f\\u007f]*";

// Letters and digits in groups joined by a space or dash. Spaces around it (pasted from a
// mail) are allowed here, in the browser and on the server alike, and dropped when stored.
const orderNumberPattern = " *[A-Za-z0-9]+([ -][A-Za-z0-9]+)* *";

/** The contact form, defined once: it writes the page's data-val rules and checks the post. */
export const contactForm = defineForm({
  id: "contact",
  fields: [
    {
      name: "name",
      label: "contact.fields.name",
      autocomplete: "name",
      rules: [
        { rule: "required" },
        { rule: "maxlength", params: { max: contactLimits.name } },
        { rule: "regex", params: { pattern: singleLine }, message: "contact.validation.singleLine" },
      ],
    },
    {
      name: "email",
      type: "email",
      label: "contact.fields.email",
      hint: "contact.fields.emailHint",
      autocomplete: "email",
      rules: [
        { rule: "required" },
        { rule: "email" },
        { rule: "maxlength", params: { max: contactLimits.email } },
      ],
    },
    {
      name: "orderNumber",
      label: "contact.fields.orderNumber",
      hint: "contact.fields.orderNumberHint",
      autocomplete: "off",
      rules: [
        { rule: "maxlength", params: { max: contactLimits.orderNumber } },
        {
          rule: "regex",
          params: { pattern: orderNumberPattern },
          message: "contact.validation.orderNumber",
        },
      ],
    },
    {
      name: "subject",
      control: "select",
      label: "contact.fields.subject",
      options: contactSubjects.map((value) => ({ value, label: `contact.subjects.${value}` })),
      rules: [{ rule: "required" }],
    },
    {
      name: "question",
      control: "textarea",
      label: "contact.fields.question",
      hint: "contact.fields.questionHint",
      rules: [
        { rule: "required" },
        { rule: "minlength", params: { min: contactLimits.questionMin } },
        { rule: "maxlength", params: { max: contactLimits.question } },
      ],
    },
  ],
});

/** A form that passed validate(), as the message to store: what was typed, without the spaces around it. */
export function contactMessageOf(values: FormValues, locale: Locale): ContactMessage {
  const text = (name: string) => (values[name] ?? "").trim();
  const orderNumber = text("orderNumber");
  return {
    locale,
    name: text("name"),
    email: text("email"),
    ...(orderNumber ? { orderNumber } : {}),
    subject: values.subject as ContactSubject,
    question: text("question"),
  };
}
