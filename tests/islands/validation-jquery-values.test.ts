// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";
import { checkField } from "../../islands/validation/validator.ts";
import { paths } from "../../server/app.ts";
import { defineForm } from "../../server/forms/form.ts";
import type { Notation, RuleName } from "../../server/forms/rules.ts";
import { createI18n, loadMessages } from "../../server/i18n/index.ts";

/**
 * jQuery Validation's own test values, run through our browser validation (the validation
 * behaviour's checkField, from data-val attributes) and the server's check of the same form.
 * Taken from jquery-validation/jquery-validation @75d4f8a: test/methods.js and
 * test/additional/creditcard.js. Each entry is the value and whether jQuery's test expects
 * it to be valid.
 */
type Case = readonly [value: string, valid: boolean];

const jquery: Record<"email" | "url" | "number" | "digits" | "creditcard", readonly Case[]> = {
  email: [
    ["name@domain.tld", true],
    ["name@domain.tl", true],
    ["bart+bart@tokbox.com", true],
    ["bart+bart@tokbox.travel", true],
    ["n@d.tld", true],
    ["bla.blu@g.mail.com", true],
    ["name@domain", true],
    ["name.@domain.tld", true],
    ["name@website.a", true],
    ["name@pro.photography", true],
    // The WHATWG grammar is ASCII only: we refuse internationalised domains as jQuery does.
    ["ole@føtex.dk", false],
    ["jörn@bassistance.de", false],
    ["name", false],
    ["test@test-.com", false],
    ["name@", false],
    ["name,@domain.tld", false],
    ["name;@domain.tld", false],
    ["name;@domain.tld.", false],
  ],
  url: [
    ["http://bassistance.de/jquery/plugin.php?bla=blu", true],
    ["https://bassistance.de/jquery/plugin.php?bla=blu", true],
    ["ftp://bassistance.de/jquery/plugin.php?bla=blu", true],
    ["http://www.føtex.dk/", true],
    ["http://bösendorfer.de/", true],
    ["http://142.42.1.1", true],
    ["http://pro.photography", true],
    ["//code.jquery.com/jquery-1.11.3.min.js", true],
    ["//142.42.1.1", true],
    ["htp://code.jquery.com/jquery-1.11.3.min.js", false],
    ["http://192.168.8.", false],
    ["http://bassistance", false],
    ["http://bassistance.", false],
    ["http://bassistance,de", false],
    ["http://bassistance;de", false],
    ["http://.bassistancede", false],
    ["bassistance.de", false],
  ],
  // The core (English) number method: comma thousands, decimal point.
  number: [
    ["123", true],
    ["-123", true],
    ["123,000", true],
    ["-123,000", true],
    ["123,000.00", true],
    ["-123,000.00", true],
    ["-", false],
    ["123.000,00", false],
    ["123.0.0,0", false],
    ["x123", false],
    ["100.100,0,0", false],
    ["", true],
    ["123000", true],
    ["123000.12", true],
    ["-123000.12", true],
    ["123.000", true],
    [".100", true],
    ["-.100", true],
    ["1230,000.00", false],
  ],
  digits: [
    ["123", true],
    ["123.000", false],
    ["123.000,00", false],
    ["123.0.0,0", false],
    ["x123", false],
    ["100.100,0,0", false],
  ],
  creditcard: [
    ["4111-1111-1111-1111", true],
    ["4111 1111 1111 1111", true],
    ["41111", false],
    ["asdf", false],
  ],
};

/**
 * The localized methods' values from the same file: numberDE and dateDE (written for
 * methods_de.js, commented out there until jQuery can load a locale in its tests), dateNL
 * (additional-methods) and dateISO, the notation our date rule reads without a locale.
 */
const jqueryLocalized: Record<"numberDE" | "dateDE" | "dateNL" | "dateISO", readonly Case[]> = {
  numberDE: [
    ["123", true],
    ["-123", true],
    ["123.000", true],
    ["-123.000", true],
    ["123.000,00", true],
    ["-123.000,00", true],
    ["123,000.00", false],
    ["123,0,0.0", false],
    ["x123", false],
    ["100,100.0.0", false],
    ["", true],
    ["123000", true],
    ["123000,12", true],
    ["-123000,12", true],
    ["123.0.0,0", false],
  ],
  dateDE: [
    ["03.06.1984", true],
    ["3.6.84", true],
    ["6-6-06", false],
    ["1990-06-06", false],
    ["06/06/1990", false],
    ["6/6/06", false],
  ],
  dateNL: [
    ["01-01-1900", true],
    ["01.01.1900", true],
    ["01/01/1900", true],
    ["01-01-00", true],
    ["1-01-1900", true],
    ["10-10-1900", true],
    ["0-01-1900", false],
    ["00-01-1900", false],
    ["35-01-1990", false],
    ["01.01.190", false],
  ],
  dateISO: [
    ["1990-06-06", true],
    ["1990-01-01", true],
    ["1990-01-31", true],
    ["1990-12-01", true],
    ["1990-12-31", true],
    ["1990/06/06", true],
    ["1990-6-6", true],
    ["1990/6/6", true],
    ["1990-106-06", false],
    ["190-06-06", false],
    ["1990-00-06", false],
    ["1990-13-01", false],
    ["1990-01-00", false],
    ["1990-01-32", false],
    ["1990-13-32", false],
  ],
};

/**
 * Where our pages deliberately differ from jQuery's core number: nl and de pages read numbers
 * as methods_nl.js and methods_de.js do (decimal comma, dot thousands), so an English
 * decimal point is no number there and a Dutch/German one is. "123,000" and "123.000" stay
 * valid on both, but mean 123 and 123000 on our pages.
 */
const numberOnOurPages: Record<string, boolean> = {
  "123,000.00": false,
  "-123,000.00": false,
  "123.000,00": true,
  "123000.12": false,
  "-123000.12": false,
  ".100": false,
  "-.100": false,
};

const i18n = createI18n(loadMessages(paths.locales), () => {});

function formFor(rule: RuleName) {
  return defineForm({ id: "jq", fields: [{ name: "field", label: "x", rules: [{ rule }] }] });
}

/** The browser's verdict: the field as the form definition writes it, on a page in `locale`. */
async function browserAccepts(rule: RuleName, value: string, locale?: Notation): Promise<boolean> {
  const form = document.createElement("form");
  if (locale) form.lang = locale;
  const input = document.createElement("input");
  input.name = "field";
  input.id = "jq-field";
  for (const [k, v] of Object.entries(formFor(rule).attributes("field", i18n.t[locale ?? "nl"])))
    input.setAttribute(k, v);
  form.append(input);
  document.body.replaceChildren(form);
  input.value = value;
  return (await checkField(form, input)).message === undefined;
}

/** The server's verdict on the same field posted from a page in `locale`. */
async function serverAccepts(rule: RuleName, value: string, locale?: Notation): Promise<boolean> {
  const errors = await formFor(rule).validate({ field: value }, i18n.t[locale ?? "nl"], undefined, locale);
  return errors.length === 0;
}

async function expectJudged(rule: RuleName, value: string, valid: boolean, locale?: Notation) {
  const where = `${rule} ${JSON.stringify(value)} on a ${locale ?? "core (no lang)"} page`;
  expect(await browserAccepts(rule, value, locale), `browser: ${where}`).toBe(valid);
  expect(await serverAccepts(rule, value, locale), `server: ${where}`).toBe(valid);
}

afterEach(() => {
  document.body.innerHTML = "";
});

const notations = [undefined, "nl", "de"] as const;

describe("jQuery Validation's own test values", () => {
  for (const rule of ["email", "url", "digits", "creditcard"] as const) {
    it.each(jquery[rule])(
      `${rule}: %s is valid: %s, in the browser and on the server, on every page`,
      async (value, valid) => {
        for (const locale of notations) await expectJudged(rule, value, valid, locale);
      },
    );
  }

  it.each(jquery.number)(
    "number: %s is valid: %s in jQuery's core (English) notation",
    async (value, valid) => {
      await expectJudged("number", value, valid);
    },
  );

  it.each(jquery.number)(
    "number: %s on our nl and de pages, as methods_nl/methods_de read it",
    async (value, valid) => {
      const ours = numberOnOurPages[value] ?? valid;
      for (const locale of ["nl", "de"] as const) await expectJudged("number", value, ours, locale);
    },
  );

  it("notes only real differences between our pages' numbers and jQuery's core", () => {
    const core = new Map(jquery.number);
    for (const [value, ours] of Object.entries(numberOnOurPages)) {
      expect(core.has(value), value).toBe(true);
      expect(core.get(value), value).toBe(!ours);
    }
  });

  it.each(jqueryLocalized.numberDE)(
    "numberDE: %s is valid: %s on our nl and de pages",
    async (value, valid) => {
      for (const locale of ["nl", "de"] as const) await expectJudged("number", value, valid, locale);
    },
  );

  it.each(jqueryLocalized.dateDE)("dateDE: %s is valid: %s on our de pages", async (value, valid) => {
    await expectJudged("date", value, valid, "de");
  });

  it.each(jqueryLocalized.dateNL)("dateNL: %s is valid: %s on our nl pages", async (value, valid) => {
    await expectJudged("date", value, valid, "nl");
  });

  it.each(jqueryLocalized.dateISO)(
    "dateISO: %s is valid: %s without a page language",
    async (value, valid) => {
      await expectJudged("date", value, valid);
    },
  );
});
