// @vitest-environment happy-dom
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { checkField, controlsOf } from "../../islands/validation/validator.ts";
import { defineForm } from "../../server/forms/form.ts";
import { defaultMessages } from "../../server/forms/rules.ts";
import { createTranslate } from "../../server/i18n/translate.ts";

const t = createTranslate("nl", {
  validation: { ...defaultMessages, choice: "Kies.", passwordWeak: "Zwak." },
});

/** Every local rule, so random input exercises them all on both sides. */
const form = defineForm({
  id: "agree",
  fields: [
    {
      name: "name",
      label: "x",
      rules: [{ rule: "required" }, { rule: "length", params: { min: 2, max: 12 } }],
    },
    { name: "email", label: "x", rules: [{ rule: "email" }] },
    { name: "site", label: "x", rules: [{ rule: "url" }] },
    { name: "day", label: "x", rules: [{ rule: "date" }] },
    {
      name: "amount",
      label: "x",
      rules: [{ rule: "number" }, { rule: "range", params: { min: -5, max: 1000 } }],
    },
    { name: "code", label: "x", rules: [{ rule: "digits" }, { rule: "maxlength", params: { max: 6 } }] },
    { name: "card", label: "x", rules: [{ rule: "creditcard" }] },
    { name: "ref", label: "x", rules: [{ rule: "regex", params: { pattern: "[A-Z]{2}-\\d+" } }] },
    {
      name: "secret",
      label: "x",
      rules: [{ rule: "password", params: { min: 8, nonalphamin: 1 } }],
      strength: { minimumLength: 8, banMode: "exact", message: "validation.passwordWeak" },
    },
    { name: "again", label: "x", rules: [{ rule: "equalto", params: { other: "secret" } }] },
  ],
});

function render(): HTMLFormElement {
  const el = document.createElement("form");
  for (const field of form.fields) {
    const input = document.createElement("input");
    input.name = field.name;
    input.id = `agree-${field.name}`;
    for (const [k, v] of Object.entries(form.attributes(field.name, t))) input.setAttribute(k, v);
    el.append(input);
  }
  document.body.replaceChildren(el);
  return el;
}

afterEach(() => {
  document.body.innerHTML = "";
});

const value = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.constantFrom(
    "",
    " ",
    "a@b",
    "x@",
    "http://example.nl",
    "//cdn.example.nl/x",
    "2026-02-29",
    "29-02-2024",
    "1.234,5",
    "-3",
    "4111 1111 1111 1111",
    "AB-12",
    "Zomer aan zee!",
    "123456",
  ),
);

describe("server and browser validation", () => {
  it("agree on which fields are wrong, for any input", async () => {
    const el = render();
    await fc.assert(
      fc.asyncProperty(
        fc.record(Object.fromEntries(form.fields.map((f) => [f.name, value]))),
        async (values) => {
          for (const [name, v] of Object.entries(values))
            (el.elements.namedItem(name) as HTMLInputElement).value = v as string;
          const browser = await Promise.all(controlsOf(el).map((c) => checkField(el, c)));
          const browserWrong = browser
            .filter((r) => r.message !== undefined)
            .map((r) => r.control.name)
            .sort();
          const server = await form.validate(values as Record<string, string>, t);
          expect(browserWrong).toEqual(server.map((e) => e.field).sort());
          // And they say the same thing.
          for (const error of server)
            expect(browser.find((r) => r.control.name === error.field)?.message).toBe(error.message);
        },
      ),
      { numRuns: 300 },
    );
  });
});
