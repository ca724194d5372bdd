import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  defaultMessages,
  type FieldContext,
  formatMessage,
  parseLocaleNumber,
  type RuleName,
  resolveOther,
  rules,
} from "../../../server/forms/rules.ts";

function form(
  values: Record<string, string> = {},
  extra: Omit<FieldContext, "otherValue"> = {},
): FieldContext {
  return { otherValue: (name) => values[name], ...extra };
}

function check(rule: RuleName, value: string, params: Record<string, string> = {}, field = form()): boolean {
  return rules[rule].check(value, params, field);
}

const optionalRules: Array<[RuleName, Record<string, string>]> = [
  ["email", {}],
  ["url", {}],
  ["date", {}],
  ["number", {}],
  ["digits", {}],
  ["creditcard", {}],
  ["length", { min: "2", max: "5" }],
  ["minlength", { min: "2" }],
  ["maxlength", { max: "5" }],
  ["range", { min: "1", max: "10" }],
  ["min", { min: "1" }],
  ["max", { max: "10" }],
  ["regex", { pattern: "\\d+" }],
  ["password", {}],
  ["remote", { url: "/check" }],
];

describe("an empty optional field", () => {
  it.each(optionalRules)("passes %s when the shopper leaves it empty", (rule, params) => {
    expect(check(rule, "", params)).toBe(true);
  });

  it.each(optionalRules.filter(([rule]) => rule !== "password"))(
    "passes %s when the shopper types only spaces",
    (rule, params) => {
      expect(check(rule, "   ", params)).toBe(true);
    },
  );

  it("checks a password of only spaces as typed: spaces are password characters, not an empty field", () => {
    // Skipped as blank, three spaces would pass a minimum of 8; checked, they are too short.
    expect(check("password", "   ", { min: "8" })).toBe(false);
    // And each space counts as a character and as a non-alphanumeric one.
    expect(check("password", "   ", { min: "3", nonalphamin: "3" })).toBe(true);
    expect(check("password", "   ", { min: "4" })).toBe(false);
    expect(check("password", "   ", { nonalphamin: "4" })).toBe(false);
  });
});

describe("required", () => {
  it("passes when the shopper typed something", () => {
    expect(check("required", "Jan")).toBe(true);
    expect(check("required", "  Jan  ")).toBe(true);
  });

  it("fails when the shopper typed nothing", () => {
    expect(check("required", "")).toBe(false);
  });

  it("when a shopper types spaces only, the field is still empty", () => {
    expect(check("required", "   ")).toBe(false);
    expect(check("required", " \r\n\t ")).toBe(false);
    expect(check("required", "\u00a0")).toBe(false);
  });

  it("counts a ticked checkbox or chosen option by its value, untrimmed", () => {
    expect(check("required", "on", {}, form({}, { kind: "checkbox" }))).toBe(true);
    expect(check("required", "", {}, form({}, { kind: "checkbox" }))).toBe(false);
    expect(check("required", "", {}, form({}, { kind: "select" }))).toBe(false);
    expect(check("required", " ", {}, form({}, { kind: "select" }))).toBe(true);
  });
});

describe("email", () => {
  it.each(["jan@fotohoek.nl", "a@b", "user@localhost", "..a@b.c", "o'brien@x.nl", "x+y@sub.example.de"])(
    "accepts %s",
    (value) => expect(check("email", value)).toBe(true),
  );

  it.each(["jan@müller.de", "a@-b.de", "a@b.de.", "a b@c.d", "x@[1.2.3.4]", "jan", "@fotohoek.nl", "jan@"])(
    "rejects %s",
    (value) => expect(check("email", value)).toBe(false),
  );

  it("rejects a host label longer than 63 characters", () => {
    expect(check("email", `a@${"b".repeat(63)}.nl`)).toBe(true);
    expect(check("email", `a@${"b".repeat(64)}.nl`)).toBe(false);
  });
});

describe("url", () => {
  it.each([
    "https://www.fotohoek.nl/pad?x=1",
    "//cdn.example.nl/x",
    "http://example.com",
    "HTTP://EXAMPLE.COM",
    "ftp://user:secret@files.example.de:2121/a",
    "https://8.8.8.8/",
    "http://münchen.de",
    "https://example.com.",
    "https://example.com#top",
  ])("accepts %s", (value) => expect(check("url", value)).toBe(true));

  it.each([
    "http://localhost",
    "http://192.168.1.1",
    "http://10.0.0.1",
    "http://127.0.0.1",
    "http://169.254.1.1",
    "http://172.16.0.1",
    "http://172.31.255.1",
    "http://1.2.3.0",
    "http://1.2.3.255",
    "http://224.0.0.1",
    "www.fotohoek.nl",
    "mailto:jan@fotohoek.nl",
    "http://example.c",
    "http://-example.com",
    "http://example.com:8",
    "http://exa mple.com",
    "http://[::1]/",
  ])("rejects %s", (value) => expect(check("url", value)).toBe(false));

  it("accepts the public edges of the private 172 range", () => {
    expect(check("url", "http://172.15.0.1")).toBe(true);
    expect(check("url", "http://172.32.0.1")).toBe(true);
  });
});

describe("date", () => {
  const nl = form({}, { locale: "nl" });
  const de = form({}, { locale: "de" });

  it.each(["29-02-2024", "29/2/2024", "1.3.2025", "31-12-1999", "1-2/2024", "28-02-26"])(
    "accepts %s on a Dutch page, as methods_nl.js does",
    (value) => expect(check("date", value, {}, nl)).toBe(true),
  );

  it.each(["29.02.2024", "1.3.2025", "31.12.1999", "3.6.84"])(
    "accepts %s on a German page, as methods_de.js does",
    (value) => expect(check("date", value, {}, de)).toBe(true),
  );

  it.each(["29-02-2024", "29/2/2024", "2024-02-29"])("refuses %s on a German page: only dots", (value) =>
    expect(check("date", value, {}, de)).toBe(false),
  );

  it.each(["2024-02-29", "2000-02-29", "2024/2/3", "2024-2-3"])(
    "accepts the ISO date %s where the page has no language, as jQuery's dateISO",
    (value) => expect(check("date", value)).toBe(true),
  );

  it("rejects days that are not on the calendar", () => {
    expect(check("date", "31-02-2024", {}, nl)).toBe(false);
    expect(check("date", "31.04.2024", {}, de)).toBe(false);
    expect(check("date", "0-1-2024", {}, nl)).toBe(false);
    expect(check("date", "1-13-2024", {}, nl)).toBe(false);
    expect(check("date", "2023-02-31")).toBe(false);
    expect(check("date", "2024-00-10")).toBe(false);
  });

  it("knows the leap years, also for a two-digit year", () => {
    expect(check("date", "29-02-2023", {}, nl)).toBe(false);
    expect(check("date", "29-02-1900", {}, nl)).toBe(false);
    expect(check("date", "29-02-2000", {}, nl)).toBe(true);
    expect(check("date", "29.02.24", {}, de)).toBe(true);
    expect(check("date", "29.02.25", {}, de)).toBe(false);
    expect(check("date", "29.02.00", {}, de)).toBe(true);
  });

  it.each(["1-2-202", "01-02-20245", "2024-02-03", "morgen", "1 2 2024", " 1-2-2024", "1-2-2024 "])(
    "rejects %s on a Dutch page",
    (value) => expect(check("date", value, {}, nl)).toBe(false),
  );

  it.each(["28-02-2026", "28.02.2026", "morgen"])("rejects %s where the page has no language", (value) =>
    expect(check("date", value)).toBe(false),
  );
});

describe("number and parseLocaleNumber on Dutch and German pages (methods_nl, methods_de)", () => {
  it.each([
    ["1.234,56", 1234.56],
    ["1234,5", 1234.5],
    ["1.234", 1234],
    ["1,234", 1.234],
    ["1.234.567", 1234567],
    ["12,34", 12.34],
    ["0,234", 0.234],
    ["-1.234,5", -1234.5],
    ["007", 7],
  ])("reads %s as %d", (value, expected) => {
    for (const locale of ["nl", "de"] as const) {
      expect(parseLocaleNumber(value, locale)).toBe(expected);
      expect(check("number", value, {}, form({}, { locale }))).toBe(true);
    }
  });

  it.each([
    "12.34",
    "1,234.5",
    ".5",
    ",5",
    "1e5",
    " 1",
    "1 ",
    "1,",
    "1.",
    "1-,5",
    "--1",
    "-",
    "1.234.5",
    "1,234,5",
    "12.345.67",
    "١٢",
    "abc",
  ])("rejects %s", (value) => {
    for (const locale of ["nl", "de"] as const) {
      expect(parseLocaleNumber(value, locale)).toBeUndefined();
      expect(check("number", value, {}, form({}, { locale }))).toBe(false);
    }
  });
});

describe("number and parseLocaleNumber where the page has no language (jQuery's core)", () => {
  it.each([
    ["1234.5", 1234.5],
    ["1,234.5", 1234.5],
    ["1,234", 1234],
    ["1.234", 1.234],
    [".5", 0.5],
    ["-.5", -0.5],
    ["007", 7],
  ])("reads %s as %d", (value, expected) => {
    expect(parseLocaleNumber(value)).toBe(expected);
    expect(check("number", value)).toBe(true);
  });

  it.each(["1.234,5", "1234,5", "12,34", "1e5", " 1", "1.", "1-.5", "-", "1,234,5", "abc"])(
    "rejects %s",
    (value) => {
      expect(parseLocaleNumber(value)).toBeUndefined();
      expect(check("number", value)).toBe(false);
    },
  );
});

describe("parseLocaleNumber", () => {
  it("rejects a number too large to hold", () => {
    expect(parseLocaleNumber("9".repeat(400), "nl")).toBeUndefined();
    expect(parseLocaleNumber("9".repeat(400))).toBeUndefined();
  });

  it("reads back what Intl writes for nl and de shoppers, and English without a language", () => {
    const formats = [
      ["nl", "nl-NL"],
      ["de", "de-DE"],
      [undefined, "en-US"],
    ] as const;
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        const amount = cents / 100;
        for (const [locale, intl] of formats) {
          const format = new Intl.NumberFormat(intl, { maximumFractionDigits: 2, useGrouping: true });
          expect(parseLocaleNumber(format.format(amount), locale)).toBe(amount);
        }
      }),
    );
  });
});

describe("digits", () => {
  it("accepts ASCII digits only", () => {
    expect(check("digits", "0123")).toBe(true);
    expect(check("digits", "12.3")).toBe(false);
    expect(check("digits", "-1")).toBe(false);
    expect(check("digits", "١٢٣")).toBe(false);
    expect(check("digits", "１２")).toBe(false);
  });
});

const luhnCheckDigit = (body: string): number => {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let digit = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) digit *= 2;
    sum += digit > 9 ? digit - 9 : digit;
  }
  return (10 - (sum % 10)) % 10;
};

describe("creditcard", () => {
  it.each(["4111 1111 1111 1111", "4111-1111-1111-1111", "378282246310005", "0000000000000"])(
    "accepts %s",
    (value) => expect(check("creditcard", value)).toBe(true),
  );

  it("rejects a Luhn-valid number with only 11 digits", () => {
    expect(check("creditcard", "79927398713")).toBe(false);
  });

  it("rejects a number that fails the checksum", () => {
    expect(check("creditcard", "1234567812345678")).toBe(false);
    expect(check("creditcard", "4111 1111 1111 1112")).toBe(false);
  });

  it("rejects dots and other separators", () => {
    expect(check("creditcard", "4111.1111.1111.1111")).toBe(false);
    expect(check("creditcard", "4111/1111/1111/1111")).toBe(false);
  });

  it("takes 13 to 19 digits and no more", () => {
    const of = (length: number) => {
      const body = "4".padEnd(length - 1, "0");
      return body + luhnCheckDigit(body);
    };
    expect(check("creditcard", of(12))).toBe(false);
    expect(check("creditcard", of(13))).toBe(true);
    expect(check("creditcard", of(19))).toBe(true);
    expect(check("creditcard", of(20))).toBe(false);
  });

  const cardNumbers = fc
    .integer({ min: 13, max: 19 })
    .chain((length) =>
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 }),
    )
    .map((digits) => {
      const body = digits.join("");
      return body + luhnCheckDigit(body);
    });

  it("accepts any Luhn-valid 13–19 digit number however the shopper spaces it", () => {
    fc.assert(
      fc.property(
        cardNumbers.chain((digits) =>
          fc.tuple(
            fc.constant(digits),
            fc.array(fc.constantFrom("", "", " ", "-"), {
              minLength: digits.length,
              maxLength: digits.length,
            }),
          ),
        ),
        ([digits, separators]) => {
          const typed = [...digits].map((digit, i) => `${separators[i] ?? ""}${digit}`).join("");
          expect(check("creditcard", typed)).toBe(true);
        },
      ),
    );
  });

  it("rejects the number when the shopper mistypes any single digit", () => {
    fc.assert(
      fc.property(cardNumbers, fc.nat(), fc.integer({ min: 1, max: 9 }), (digits, at, shift) => {
        const i = at % digits.length;
        const wrong = (Number(digits[i]) + shift) % 10;
        expect(check("creditcard", digits.slice(0, i) + wrong + digits.slice(i + 1))).toBe(false);
      }),
    );
  });
});

describe("equalto", () => {
  it("passes when the confirmation matches exactly", () => {
    expect(check("equalto", "geheim!", { other: "Password" }, form({ Password: "geheim!" }))).toBe(true);
  });

  it("fails on any difference, including case and spaces", () => {
    expect(check("equalto", "Geheim!", { other: "Password" }, form({ Password: "geheim!" }))).toBe(false);
    expect(check("equalto", "geheim! ", { other: "Password" }, form({ Password: "geheim!" }))).toBe(false);
  });

  it("fails when the shopper left the confirmation empty but filled in the password", () => {
    expect(check("equalto", "", { other: "Password" }, form({ Password: "geheim!" }))).toBe(false);
  });

  it("fails when the other field is not in the form", () => {
    expect(check("equalto", "", { other: "Password" }, form())).toBe(false);
  });

  it("finds the other field under the same model prefix", () => {
    const field = form({ "User.Password": "geheim!", Password: "anders" }, { name: "User.Confirm" });
    expect(check("equalto", "geheim!", { other: "*.Password" }, field)).toBe(true);
    expect(check("equalto", "anders", { other: "*.Password" }, field)).toBe(false);
  });

  it("leaves *. to the form when the field does not say its own name", () => {
    const values: Record<string, string> = { "User.Password": "geheim!" };
    const field: FieldContext = { otherValue: (name) => values[resolveOther("User.Confirm", name)] };
    expect(check("equalto", "geheim!", { other: "*.Password" }, field)).toBe(true);
  });

  it("resolves *. against everything up to the last dot of this field's name", () => {
    expect(resolveOther("User.Confirm", "*.Password")).toBe("User.Password");
    expect(resolveOther("Order.Billing.Email2", "*.Email")).toBe("Order.Billing.Email");
    expect(resolveOther("Confirm", "*.Password")).toBe("Password");
    expect(resolveOther("User.Confirm", "Password")).toBe("Password");
  });

  it("treats a missing other parameter as a programming error", () => {
    expect(() => check("equalto", "x", {}, form())).toThrow(/other/);
  });
});

describe("length, minlength and maxlength", () => {
  it("checks both bounds, either of which may be absent", () => {
    expect(check("length", "ab", { min: "2", max: "4" })).toBe(true);
    expect(check("length", "abcd", { min: "2", max: "4" })).toBe(true);
    expect(check("length", "a", { min: "2", max: "4" })).toBe(false);
    expect(check("length", "abcde", { min: "2", max: "4" })).toBe(false);
    expect(check("length", "a".repeat(1000), { min: "2" })).toBe(true);
    expect(check("length", "abcde", { max: "4" })).toBe(false);
    expect(check("minlength", "abc", { min: "3" })).toBe(true);
    expect(check("minlength", "ab", { min: "3" })).toBe(false);
    expect(check("maxlength", "abc", { max: "3" })).toBe(true);
    expect(check("maxlength", "abcd", { max: "3" })).toBe(false);
  });

  it("counts an emoji in a photo caption as one character", () => {
    expect("📷🎉".length).toBe(4);
    expect(check("maxlength", "📷🎉", { max: "2" })).toBe(true);
    expect(check("minlength", "📷🎉", { min: "3" })).toBe(false);
    expect(check("length", "Zoë 📷", { min: "5", max: "5" })).toBe(true);
  });

  it("treats a parameter that is not a number as a programming error", () => {
    expect(() => check("minlength", "abc", { min: "drie" })).toThrow(/min/);
  });

  const nonBlank = fc.string({ unit: "binary", maxLength: 30 }).filter((s) => s.trim() !== "");

  it("agrees with the code-point length for any text", () => {
    fc.assert(
      fc.property(nonBlank, fc.nat({ max: 40 }), (text, limit) => {
        const count = Array.from(text).length;
        expect(check("minlength", text, { min: String(limit) })).toBe(count >= limit);
        expect(check("maxlength", text, { max: String(limit) })).toBe(count <= limit);
      }),
    );
  });
});

describe("range, min and max", () => {
  it("compares the number the shopper typed in the page's notation", () => {
    const nl = form({}, { locale: "nl" });
    expect(check("range", "1.234,5", { min: "1000", max: "2000" }, nl)).toBe(true);
    expect(check("range", "2.000,01", { min: "1000", max: "2000" }, nl)).toBe(false);
    expect(check("range", "0,5", { min: "0.5", max: "1" }, nl)).toBe(true);
    expect(check("range", "0,49", { min: "0.5", max: "1" }, nl)).toBe(false);
    // "1,234" is a little more than one on a Dutch page, and 1234 in English.
    expect(check("max", "1,234", { max: "2" }, nl)).toBe(true);
    expect(check("max", "1,234", { max: "2" })).toBe(false);
    expect(check("range", "1,234.5", { min: "1000", max: "2000" })).toBe(true);
    expect(check("range", "1,234.5", { min: "1000", max: "2000" }, nl)).toBe(false);
  });

  it("is one-sided when a bound is absent", () => {
    expect(check("range", "-1000000", { max: "10" })).toBe(true);
    expect(check("range", "11", { max: "10" })).toBe(false);
    expect(check("range", "1000000", { min: "10" })).toBe(true);
  });

  it("compares numbers, not text", () => {
    const de = form({}, { locale: "de" });
    expect(check("min", "10", { min: "5" }, de)).toBe(true);
    expect(check("min", "4,99", { min: "5" }, de)).toBe(false);
    expect(check("max", "5", { max: "10" }, de)).toBe(true);
    expect(check("max", "10,5", { max: "10" }, de)).toBe(false);
    expect(check("max", "9.5", { max: "10" })).toBe(true);
  });

  it("fails when the shopper did not type a number", () => {
    expect(check("range", "tien", { min: "1", max: "10" })).toBe(false);
    expect(check("min", "1e1", { min: "1" })).toBe(false);
    expect(check("max", "1.", { max: "10" })).toBe(false);
  });
});

describe("regex", () => {
  it("must match the whole value", () => {
    expect(check("regex", "1234 AB", { pattern: "\\d{4} ?[A-Z]{2}" })).toBe(true);
    expect(check("regex", "1234 AB extra", { pattern: "\\d{4} ?[A-Z]{2}" })).toBe(false);
    expect(check("regex", "x1234 AB", { pattern: "\\d{4} ?[A-Z]{2}" })).toBe(false);
  });

  it("lets the first alternative that matches decide, as unobtrusive validation does", () => {
    expect(check("regex", "ab", { pattern: "a|ab" })).toBe(false);
    expect(check("regex", "ab", { pattern: "ab|a" })).toBe(true);
  });

  it("treats a broken pattern as a programming error", () => {
    expect(() => check("regex", "x", { pattern: "(" })).toThrow(SyntaxError);
    expect(() => check("regex", "x", {})).toThrow(/pattern/);
  });
});

describe("password", () => {
  const params = { min: "8", nonalphamin: "1" };

  it("passes a long password with a symbol", () => {
    expect(check("password", "fotoboek!", params)).toBe(true);
  });

  it("fails a short password", () => {
    expect(check("password", "foto!", params)).toBe(false);
  });

  it("fails without enough non-alphanumeric characters", () => {
    expect(check("password", "fotoboek2024", params)).toBe(false);
    expect(check("password", "fotoboek!", { nonalphamin: "2" })).toBe(false);
    expect(check("password", "foto boek!", { nonalphamin: "2" })).toBe(true);
  });

  it("counts umlauts and accents as letters, and an emoji as one symbol", () => {
    expect(check("password", "Größenwahn", { nonalphamin: "1" })).toBe(false);
    expect(check("password", "Café", { nonalphamin: "1" })).toBe(false);
    expect(check("password", "zomer📷", { nonalphamin: "1" })).toBe(true);
    expect(check("password", "zomer📷", { nonalphamin: "2" })).toBe(false);
    expect(check("password", "١٢٣٤", { nonalphamin: "1" })).toBe(false);
  });

  it("fails when the shopper left it empty and a minimum applies", () => {
    expect(check("password", "", { min: "8" })).toBe(false);
    expect(check("password", "", { nonalphamin: "1" })).toBe(false);
    expect(check("password", "", { min: "0", nonalphamin: "0" })).toBe(true);
  });

  it("counts spaces as password characters", () => {
    expect(check("password", "        ", { min: "8" })).toBe(true);
    expect(check("password", "   ", { min: "8" })).toBe(false);
  });

  it("applies the pattern to the whole password", () => {
    expect(check("password", "Fotoboek!", { min: "8", regex: "(?=.*[A-Z]).*" })).toBe(true);
    expect(check("password", "fotoboek!", { min: "8", regex: "(?=.*[A-Z]).*" })).toBe(false);
  });
});

describe("remote", () => {
  it("leaves the verdict to the server", () => {
    expect(check("remote", "jan@fotohoek.nl", { url: "/account/email-vrij" })).toBe(true);
  });
});

describe("the rule table", () => {
  it("lists the parameters in message-placeholder order", () => {
    expect(rules.length.params).toEqual(["min", "max"]);
    expect(rules.range.params).toEqual(["min", "max"]);
    expect(rules.minlength.params).toEqual(["min"]);
    expect(rules.maxlength.params).toEqual(["max"]);
    expect(rules.equalto.params).toEqual(["other"]);
    expect(rules.regex.params).toEqual(["pattern"]);
    expect(rules.password.params).toEqual(["min", "nonalphamin", "regex"]);
  });
});

describe("messages", () => {
  it("uses the jQuery Validation English defaults", () => {
    expect(defaultMessages.required).toBe("This field is required.");
    expect(defaultMessages.creditcard).toBe("Please enter a valid credit card number.");
    expect(defaultMessages.length).toBe("Please enter a value between {0} and {1} characters long.");
    expect(defaultMessages.remote).toBe("Please fix this field.");
  });

  it("fills placeholders with the rule's parameters", () => {
    expect(formatMessage(defaultMessages.minlength, [8])).toBe("Please enter at least 8 characters.");
    expect(formatMessage(defaultMessages.range, ["1", "10"])).toBe("Please enter a value between 1 and 10.");
    expect(formatMessage("{1} before {0}, {0} again", ["a", "b"])).toBe("b before a, a again");
  });

  it("leaves a placeholder visible when its argument is missing", () => {
    expect(formatMessage(defaultMessages.length, [2])).toBe(
      "Please enter a value between 2 and {1} characters long.",
    );
  });

  it("inserts arguments literally", () => {
    expect(formatMessage("Use {0}", ["$& and $1"])).toBe("Use $& and $1");
  });

  const localeFile = (locale: string) =>
    JSON.parse(readFileSync(new URL(`../../../locales/${locale}.json`, import.meta.url), "utf8")) as {
      validation: Record<string, string>;
    };
  const placeholders = (text: string) => [...text.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

  it.each(["nl", "de"])("has a %s text for every rule with the English placeholders", (locale) => {
    const texts = localeFile(locale).validation;
    // Every rule has a text; the group may hold more (form-level messages such as "choice").
    expect(Object.keys(texts)).toEqual(expect.arrayContaining(Object.keys(defaultMessages)));
    for (const [rule, english] of Object.entries(defaultMessages)) {
      expect(placeholders(texts[rule] ?? ""), `${locale} ${rule}`).toEqual(placeholders(english));
    }
  });
});
