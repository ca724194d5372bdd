/**
 * Validation rule methods shared by the server and the browser. The server is the authority; the
 * browser runs the same methods so a shopper hears about a mistake before submitting. Rule names and
 * parameters follow ASP.NET unobtrusive validation (`data-val-<rule>-<param>`), so a form schema can
 * be rendered as data attributes and checked again on the server with identical results.
 *
 * Pure and dependency-free on purpose: this file is bundled for the browser.
 */

export type RuleName =
  | "required"
  | "email"
  | "url"
  | "date"
  | "number"
  | "digits"
  | "creditcard"
  | "equalto"
  | "length"
  | "minlength"
  | "maxlength"
  | "range"
  | "min"
  | "max"
  | "regex"
  | "password"
  | "remote";

/**
 * The page's language, which decides how numbers and dates are written: jQuery Validation's
 * localized methods (methods_nl.js, methods_de.js) replace its core number and date methods.
 */
export type Notation = "nl" | "de";

export interface FieldContext {
  /** The current value of another field in the same form; undefined when the form has no such field. */
  otherValue(name: string): string | undefined;
  kind?: "text" | "checkbox" | "select";
  /**
   * How the shopper writes numbers and dates: the page's language. Without it, jQuery
   * Validation's core notation: English numbers (1,234.5) and ISO dates (2026-02-28).
   */
  locale?: Notation;
  /**
   * This field's own name, so equalto can resolve a `*.` prefix in `other`. Without it, `other` reaches
   * otherValue exactly as written and the context is expected to resolve it (see resolveOther).
   */
  name?: string;
}

export interface RuleDefinition {
  check(value: string, params: Record<string, string>, field: FieldContext): boolean;
  /** The parameter names, in the order the message placeholders {0}, {1} use them. */
  params: readonly string[];
}

/**
 * Deliberately stricter than jQuery Validation ≥1.14, which counts "   " as filled in: shoppers expect
 * a field holding only spaces to be empty, and the server would store nothing useful anyway.
 * A checkbox or select carries a value only when checked or chosen, so it is not trimmed.
 */
function isBlank(value: string, field: FieldContext): boolean {
  return field.kind === "checkbox" || field.kind === "select" ? value === "" : value.trim() === "";
}

/** Code points, not UTF-16 units: an emoji or a rare CJK character is one character to the shopper. */
function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** A numeric parameter comes from our own schema, so a value that is not a number is a programming error. */
function numberParam(params: Record<string, string>, name: string): number | undefined {
  const raw = params[name];
  if (raw === undefined || raw === "") return undefined;
  const parsed = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(parsed)) {
    throw new Error(`Validation parameter "${name}" is not a number: ${JSON.stringify(raw)}`);
  }
  return parsed;
}

function requiredParam(params: Record<string, string>, name: string, rule: RuleName): string {
  const raw = params[name];
  if (raw === undefined) throw new Error(`Validation rule "${rule}" needs the parameter "${name}"`);
  return raw;
}

function within(n: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || n >= min) && (max === undefined || n <= max);
}

/** Unobtrusive validation's regex semantics: no anchors are added, so the first match must be the whole value. */
function matchesWhole(value: string, pattern: string): boolean {
  const match = new RegExp(pattern).exec(value);
  return match !== null && match.index === 0 && match[0].length === value.length;
}

/** Skips the check for a blank value, so every rule but required, equalto and password stays optional. */
function optional(
  params: readonly string[],
  test: (value: string, params: Record<string, string>, field: FieldContext) => boolean,
): RuleDefinition {
  return { params, check: (value, p, field) => isBlank(value, field) || test(value, p, field) };
}

// WHATWG "valid e-mail address": no TLD needed (user@localhost passes), ASCII only.
const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

// Diego Perini's URL rules as jQuery Validation applies them: the scheme may be left out, "//" may not.
// The host is split out first and judged on its own, which reads more plainly than one huge regex.
const urlPattern =
  /^(?:(?:https?|ftp):)?\/\/(?:[^\s/?#@:]+(?::[^\s/?#@]*)?@)?([^\s/?#@:]+)(?::\d{2,5})?(?:[/?#]\S*)?$/i;
const ipv4Pattern = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const hostLabel = "[a-z0-9\\u00a1-\\uffff](?:[a-z0-9\\u00a1-\\uffff_-]{0,61}[a-z0-9\\u00a1-\\uffff])?";
const hostnamePattern = new RegExp(`^(?:${hostLabel}\\.)+[a-z\\u00a1-\\uffff]{2,}\\.?$`, "i");

/** A public IPv4 address: private, loopback and link-local ranges would never serve a shopper's link. */
function isPublicIpv4(octets: number[]): boolean {
  const [a = -1, b = -1, c = -1, d = -1] = octets;
  if (a < 1 || a > 223 || b > 255 || c > 255 || d < 1 || d > 254) return false;
  if (a === 10 || a === 127) return false;
  if ((a === 169 && b === 254) || (a === 192 && b === 168)) return false;
  return !(a === 172 && b >= 16 && b <= 31);
}

function isUrl(value: string): boolean {
  const host = urlPattern.exec(value)?.[1];
  if (host === undefined) return false;
  const ip = ipv4Pattern.exec(host);
  // A dotted-quad host is judged as an address only; it can never pass as a hostname (its "TLD" is digits).
  if (ip) return isPublicIpv4(ip.slice(1).map(Number));
  return hostnamePattern.test(host);
}

// jQuery's core `date` hands the text to `new Date()`, whose parsing differs per browser. We read
// dates as its localized methods do: methods_nl.js takes day-month-year with ".", "/" or "-",
// methods_de.js only with dots. Deliberately stricter than both: the year has 2 or 4 digits
// (never 3) and the day must be on the calendar (31-02 is refused). Without a locale: ISO
// (jQuery's dateISO), as <input type=date> sends it.
const datePatterns: Record<Notation | "core", RegExp> = {
  nl: /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$/,
  de: /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/,
  core: /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/,
};

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth =
    [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= daysInMonth;
}

export function isDate(value: string, locale?: Notation): boolean {
  const parts = datePatterns[locale ?? "core"].exec(value);
  if (!parts) return false;
  const [first, second, third] = parts.slice(1).map(Number) as [number, number, number];
  if (!locale) return isCalendarDate(first, second, third);
  // "29.02.24" is 2024: a two-digit year is this century's.
  return isCalendarDate(third < 100 ? 2000 + third : third, second, first);
}

// jQuery Validation's number methods, each with at least one digit. Core (English):
// "1,234.56", ".5"; methods_nl.js and methods_de.js (the same): "1.234,56", "1234,5", and a
// whole part is needed (",5" and "12.34" are no numbers). A lone "1,234" is therefore 1234 in
// English but 1.234 on a Dutch or German page. Exponents and spaces are refused everywhere,
// and so is core jQuery's quirk "1-.5".
const numberPatterns: Record<Notation | "core", RegExp> = {
  nl: /^-?(?:\d+|\d{1,3}(?:\.\d{3})+)(?:,\d+)?$/,
  de: /^-?(?:\d+|\d{1,3}(?:\.\d{3})+)(?:,\d+)?$/,
  core: /^-?(?=\.?\d)(?:\d+|\d{1,3}(?:,\d{3})+)?(?:\.\d+)?$/,
};

/**
 * Reads a number as the shopper wrote it in the page's notation (see numberPatterns);
 * undefined when it is not a number there, or too large to hold.
 */
export function parseLocaleNumber(value: string, locale?: Notation): number | undefined {
  if (!numberPatterns[locale ?? "core"].test(value)) return undefined;
  const normalized = locale ? value.replaceAll(".", "").replace(",", ".") : value.replaceAll(",", "");
  const parsed = Number(normalized);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function isLuhnCardNumber(value: string): boolean {
  if (/[^0-9 -]/.test(value)) return false;
  const digits = value.replace(/\D/g, "");
  if (digits.length < 13 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * `*.Password` on the field `User.Confirm` means `User.Password`: nested models share a prefix, and
 * the schema should not have to spell it out.
 */
export function resolveOther(fieldName: string, other: string): string {
  if (!other.startsWith("*.")) return other;
  return fieldName.slice(0, fieldName.lastIndexOf(".") + 1) + other.slice(2);
}

// Unicode-aware, unlike unobtrusive validation's \W: "é" or "ß" is a letter to a German shopper.
const nonAlphanumeric = /[^\p{L}\p{N}]/gu;

function isStrongEnough(value: string, params: Record<string, string>): boolean {
  const min = numberParam(params, "min") ?? 0;
  const nonAlphaMin = numberParam(params, "nonalphamin") ?? 0;
  const pattern = params.regex;
  // Spaces count as password characters, so only a truly empty value is "nothing typed".
  if (value === "") return min <= 0 && nonAlphaMin <= 0;
  if (codePointLength(value) < min) return false;
  if ((value.match(nonAlphanumeric)?.length ?? 0) < nonAlphaMin) return false;
  return pattern === undefined || pattern === "" || matchesWhole(value, pattern);
}

export const rules: Record<RuleName, RuleDefinition> = {
  required: { params: [], check: (value, _params, field) => !isBlank(value, field) },
  email: optional([], (value) => emailPattern.test(value)),
  url: optional([], isUrl),
  date: optional([], (value, _params, field) => isDate(value, field.locale)),
  number: optional([], (value, _params, field) => parseLocaleNumber(value, field.locale) !== undefined),
  digits: optional([], (value) => /^\d+$/.test(value)),
  creditcard: optional([], isLuhnCardNumber),
  equalto: {
    params: ["other"],
    // No optional check: an empty confirmation field must fail while the original is filled in.
    check: (value, params, field) => {
      const other = requiredParam(params, "other", "equalto");
      return value === field.otherValue(field.name === undefined ? other : resolveOther(field.name, other));
    },
  },
  length: optional(["min", "max"], (value, params) =>
    within(codePointLength(value), numberParam(params, "min"), numberParam(params, "max")),
  ),
  minlength: optional(["min"], (value, params) =>
    within(codePointLength(value), numberParam(params, "min"), undefined),
  ),
  maxlength: optional(["max"], (value, params) =>
    within(codePointLength(value), undefined, numberParam(params, "max")),
  ),
  range: optional(["min", "max"], (value, params, field) => {
    const n = parseLocaleNumber(value, field.locale);
    return n !== undefined && within(n, numberParam(params, "min"), numberParam(params, "max"));
  }),
  min: optional(["min"], (value, params, field) => {
    const n = parseLocaleNumber(value, field.locale);
    return n !== undefined && within(n, numberParam(params, "min"), undefined);
  }),
  max: optional(["max"], (value, params, field) => {
    const n = parseLocaleNumber(value, field.locale);
    return n !== undefined && within(n, undefined, numberParam(params, "max"));
  }),
  regex: optional(["pattern"], (value, params) =>
    matchesWhole(value, requiredParam(params, "pattern", "regex")),
  ),
  password: {
    params: ["min", "nonalphamin", "regex"],
    check: (value, params) => isStrongEnough(value, params),
  },
  // Answered by the server over HTTP; locally there is nothing to check.
  remote: { params: ["url", "type", "additionalfields"], check: () => true },
};

/** English defaults, worded as jQuery Validation's `$.validator.messages`; nl/de live in the locale files. */
export const defaultMessages: Record<RuleName, string> = {
  required: "This field is required.",
  email: "Please enter a valid email address.",
  url: "Please enter a valid URL.",
  date: "Please enter a valid date.",
  number: "Please enter a valid number.",
  digits: "Please enter only digits.",
  creditcard: "Please enter a valid credit card number.",
  equalto: "Please enter the same value again.",
  minlength: "Please enter at least {0} characters.",
  maxlength: "Please enter no more than {0} characters.",
  length: "Please enter a value between {0} and {1} characters long.",
  range: "Please enter a value between {0} and {1}.",
  min: "Please enter a value greater than or equal to {0}.",
  max: "Please enter a value less than or equal to {0}.",
  regex: "Please fix this field.",
  remote: "Please fix this field.",
  password: "Please choose a stronger password.",
};

/** Fills {0}, {1}, …; a placeholder without an argument is left visible rather than silently dropped. */
export function formatMessage(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? whole : String(arg);
  });
}

/** A rule's parameters in the order its message uses them: {0}, {1}. */
export function messageArguments(
  rule: RuleName,
  params: Readonly<Record<string, string | number>>,
): string[] {
  return rules[rule].params.map((name) => String(params[name] ?? ""));
}
