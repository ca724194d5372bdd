// @vitest-environment happy-dom
import fc from "fast-check";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { checkField, controlsOf, type FieldControl } from "../../islands/validation/validator.ts";
import { paths } from "../../server/app.ts";
import { defineForm } from "../../server/forms/form.ts";
import { patternRulesForm } from "../../server/forms/pattern-rules-form.ts";
import { defaultMessages } from "../../server/forms/rules.ts";
import { createI18n, loadMessages } from "../../server/i18n/index.ts";
import { createTranslate } from "../../server/i18n/translate.ts";
import { checkPostcode } from "../../server/routes/remote-checks.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

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
  vi.unstubAllGlobals();
});
afterAll(closeExamples);

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

const i18n = createI18n(loadMessages(paths.locales), () => {});

/** Values that meet or break each rule of the pattern library's examples, in both notations. */
const ruleValue = fc.oneof(
  fc.string({ maxLength: 16 }),
  fc.constantFrom(
    "",
    "   ",
    "Anna",
    "anna@example.nl",
    "ole@føtex.dk",
    "anna@",
    "https://www.example.nl/fotoboeken",
    "//cdn.example.nl/x",
    "http://192.168.1.1",
    "www.example.nl",
    "28-02-2026",
    "28.02.2026",
    "28/2/26",
    "29.02.25",
    "2026-02-28",
    "31-04-2026",
    "1.234,56",
    "1234,5",
    "1,234.56",
    "12.34",
    "-12",
    "23,99",
    "24",
    "100,5",
    "0,5",
    "12",
    "0612345678",
    "4111 1111 1111 1111",
    "4111-1111-1111-1112",
    "79927398713",
    "ab",
    "abcdefghijk",
    "📷📷📷",
    "FOTO-2026",
    "foto-2026",
    "1234 AB",
    "10115",
    "0000 XX",
    "Zomer aan zee 2026!",
    "wachtwoord",
    "kort!",
  ),
);

/** The remote check answers as its route does (server/routes/remote-checks.ts): with the server's function. */
function answerRemoteChecks(locale: "nl" | "de"): void {
  vi.stubGlobal("fetch", async (url: string) => {
    const query = new URL(url).searchParams;
    const answer = checkPostcode(
      { postcode: query.get("postcode") ?? "", country: query.get("country") ?? "" },
      i18n.t[locale],
    );
    return new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
  });
}

describe("the pattern library's rule examples", () => {
  it.each(["nl", "de"] as const)(
    "are judged alike, rule by rule and message by message, by the browser and the server (%s)",
    async (locale) => {
      answerRemoteChecks(locale);
      document.documentElement.lang = locale;
      document.body.innerHTML = await exampleHtml("validation", "rules", locale);
      const el = document.querySelector<HTMLFormElement>("#rules-form-region form");
      if (!el) throw new Error("the rule examples have no form");
      const control = (name: string) => el.elements.namedItem(name) as FieldControl;
      const t = i18n.t[locale];
      const arbitraries = Object.fromEntries(
        patternRulesForm.fields.map((f) => [
          f.name,
          f.control === "select" ? fc.constantFrom("", ...(f.options ?? []).map((o) => o.value)) : ruleValue,
        ]),
      );
      await fc.assert(
        fc.asyncProperty(fc.record(arbitraries), async (typed) => {
          for (const [name, v] of Object.entries(typed)) control(name).value = v as string;
          const browser = await Promise.all(controlsOf(el).map((c) => checkField(el, c)));
          // What the form sends: the controls' values, as the browser holds them.
          const posted = Object.fromEntries(
            patternRulesForm.fields.map((f) => [f.name, control(f.name).value]),
          );
          const server = await patternRulesForm.validate(
            posted,
            t,
            async (field, all) => (field === "postcode" ? checkPostcode(all, t) : true),
            locale,
          );
          const browserWrong = browser.filter((r) => r.message !== undefined);
          expect(browserWrong.map((r) => r.control.name).sort()).toEqual(server.map((e) => e.field).sort());
          for (const error of server)
            expect(browser.find((r) => r.control.name === error.field)?.message).toBe(error.message);
        }),
        { numRuns: 150 },
      );
    },
  );

  it("cover every rule the browser and the server share", () => {
    const used = new Set(patternRulesForm.fields.flatMap((f) => f.rules.map((r) => r.rule)));
    expect([...used].sort()).toEqual(Object.keys(defaultMessages).sort());
    expect(patternRulesForm.fields.some((f) => f.strength)).toBe(true);
  });
});
