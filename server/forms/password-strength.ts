/**
 * Password strength, after the Complexify formula (danpalmer/jquery.complexify.js 0.5.x).
 * Pure and browser-safe: the server check and the live meter in the browser share this file,
 * so both always agree on `valid`.
 *
 * Formula:
 *   C       = the sum of the sizes of the character ranges below (each counted once) that
 *             occur in the password, looked up per UTF-16 code unit exactly as Complexify
 *             does (an astral emoji therefore hits both surrogate ranges: 896 + 1024);
 *             a banned password has C = 1.
 *   score   = length × ln(C) / scaleFactor, length in UTF-16 code units.
 *   percent = score / 120 × 100, clamped to 0..100.
 *   valid   = score > 49 && length >= minimumLength && !banned.
 *
 * Deliberate differences from Complexify:
 * - Complexify computes ln(C^length), which overflows to Infinity for long passwords; we compute
 *   length × ln(C) directly (same value wherever Complexify's is finite).
 * - A non-empty password whose characters are in no range (e.g. only tabs or newlines) has C = 0;
 *   Complexify then reports −Infinity for score and percent. We report score 0 and percent 0.
 *   Percent is also clamped below at 0 and is never NaN.
 * - Empty ban-list entries are ignored (in strict mode Complexify would ban every password).
 * - The default ban list is `commonPasswords` (the equivalent of loading Complexify's ban-list
 *   script), not an empty list. Pass `banList: []` for Complexify's bare behaviour.
 * - Invalid options (minimumLength or scaleFactor negative, zero scale, NaN…) throw a RangeError.
 *
 * Levels (for the meter's wording/colour), on percent:
 *   weak    percent < 25
 *   fair    25 ≤ percent < 50, or any password that is not valid with percent ≥ 25
 *   good    valid and 50 ≤ percent < 75
 *   strong  valid and percent ≥ 75
 * A password that is not valid is never above "fair". The weakest valid passwords (percent just
 * above 40.83) are "fair".
 */

export interface StrengthOptions {
  /** Minimum length in UTF-16 code units; 8 by default. */
  minimumLength?: number;
  /** The raw score is divided by this; 1 by default. */
  scaleFactor?: number;
  /** Banned passwords or fragments; `commonPasswords` by default. */
  banList?: readonly string[];
  /**
   * "strict" (default): banned when the lower-cased password contains any lower-cased entry.
   * "exact": banned only when the password equals an entry exactly (case-sensitive).
   */
  banMode?: "strict" | "exact";
}

export type StrengthLevel = "weak" | "fair" | "good" | "strong";

export interface Strength {
  /** Raw complexity: length × ln(C) / scale; never negative or NaN. */
  score: number;
  /** min(100, score / 120 × 100), clamped to 0..100. */
  percent: number;
  /** score > 49 && length >= minimumLength && !banned. */
  valid: boolean;
  banned: boolean;
  tooShort: boolean;
  level: StrengthLevel;
}

/** A password is valid when its score is strictly above this ("12 chars with upper, lower and number"). */
export const minimumComplexity = 49;
/** The score that gives 100 % ("25 chars, all charsets"). */
export const maximumComplexity = 120;

export const defaultMinimumLength = 8;

export interface CharacterRange {
  readonly name: string;
  /** First UTF-16 code unit, inclusive. */
  readonly start: number;
  /** Last UTF-16 code unit, inclusive. */
  readonly end: number;
  /** end − start + 1. */
  readonly size: number;
}

const range = (name: string, start: number, end: number): CharacterRange =>
  Object.freeze({ name, start, end, size: end - start + 1 });

/** Complexify's 95 ranges, in the order of its source. Sizes total 59,975. */
export const characterRanges: readonly CharacterRange[] = Object.freeze([
  range("Space", 0x0020, 0x0020),
  range("Digits", 0x0030, 0x0039),
  range("Upper-case Latin", 0x0041, 0x005a),
  range("Lower-case Latin", 0x0061, 0x007a),
  range("Punctuation ! to /", 0x0021, 0x002f),
  range("Punctuation : to @", 0x003a, 0x0040),
  range("Punctuation [ to `", 0x005b, 0x0060),
  range("Punctuation { to ~", 0x007b, 0x007e),
  range("Latin-1 Supplement", 0x0080, 0x00ff),
  range("Latin Extended-A", 0x0100, 0x017f),
  range("Latin Extended-B", 0x0180, 0x024f),
  range("IPA Extensions", 0x0250, 0x02af),
  range("Spacing Modifier Letters", 0x02b0, 0x02ff),
  range("Combining Diacritical Marks", 0x0300, 0x036f),
  range("Greek", 0x0370, 0x03ff),
  range("Cyrillic", 0x0400, 0x04ff),
  range("Armenian", 0x0530, 0x058f),
  range("Hebrew", 0x0590, 0x05ff),
  range("Arabic", 0x0600, 0x06ff),
  range("Syriac", 0x0700, 0x074f),
  range("Thaana", 0x0780, 0x07bf),
  range("Devanagari", 0x0900, 0x097f),
  range("Bengali", 0x0980, 0x09ff),
  range("Gurmukhi", 0x0a00, 0x0a7f),
  range("Gujarati", 0x0a80, 0x0aff),
  range("Oriya", 0x0b00, 0x0b7f),
  range("Tamil", 0x0b80, 0x0bff),
  range("Telugu", 0x0c00, 0x0c7f),
  range("Kannada", 0x0c80, 0x0cff),
  range("Malayalam", 0x0d00, 0x0d7f),
  range("Sinhala", 0x0d80, 0x0dff),
  range("Thai", 0x0e00, 0x0e7f),
  range("Lao", 0x0e80, 0x0eff),
  range("Tibetan", 0x0f00, 0x0fff),
  range("Myanmar", 0x1000, 0x109f),
  range("Georgian", 0x10a0, 0x10ff),
  range("Hangul Jamo", 0x1100, 0x11ff),
  range("Ethiopic", 0x1200, 0x137f),
  range("Cherokee", 0x13a0, 0x13ff),
  range("Unified Canadian Aboriginal Syllabics", 0x1400, 0x167f),
  range("Ogham", 0x1680, 0x169f),
  range("Runic", 0x16a0, 0x16ff),
  range("Khmer", 0x1780, 0x17ff),
  range("Mongolian", 0x1800, 0x18af),
  range("Latin Extended Additional", 0x1e00, 0x1eff),
  range("Greek Extended", 0x1f00, 0x1fff),
  range("General Punctuation", 0x2000, 0x206f),
  range("Superscripts and Subscripts", 0x2070, 0x209f),
  range("Currency Symbols", 0x20a0, 0x20cf),
  range("Combining Marks for Symbols", 0x20d0, 0x20ff),
  range("Letterlike Symbols", 0x2100, 0x214f),
  range("Number Forms", 0x2150, 0x218f),
  range("Arrows", 0x2190, 0x21ff),
  range("Mathematical Operators", 0x2200, 0x22ff),
  range("Miscellaneous Technical", 0x2300, 0x23ff),
  range("Control Pictures", 0x2400, 0x243f),
  range("Optical Character Recognition", 0x2440, 0x245f),
  range("Enclosed Alphanumerics", 0x2460, 0x24ff),
  range("Box Drawing", 0x2500, 0x257f),
  range("Block Elements", 0x2580, 0x259f),
  range("Geometric Shapes", 0x25a0, 0x25ff),
  range("Miscellaneous Symbols", 0x2600, 0x26ff),
  range("Dingbats", 0x2700, 0x27bf),
  range("Braille Patterns", 0x2800, 0x28ff),
  range("CJK Radicals Supplement", 0x2e80, 0x2eff),
  range("Kangxi Radicals", 0x2f00, 0x2fdf),
  range("Ideographic Description Characters", 0x2ff0, 0x2fff),
  range("CJK Symbols and Punctuation", 0x3000, 0x303f),
  range("Hiragana", 0x3040, 0x309f),
  range("Katakana", 0x30a0, 0x30ff),
  range("Bopomofo", 0x3100, 0x312f),
  range("Hangul Compatibility Jamo", 0x3130, 0x318f),
  range("Kanbun", 0x3190, 0x319f),
  range("Bopomofo Extended", 0x31a0, 0x31bf),
  range("Enclosed CJK Letters and Months", 0x3200, 0x32ff),
  range("CJK Compatibility", 0x3300, 0x33ff),
  range("CJK Unified Ideographs Extension A", 0x3400, 0x4db5),
  range("CJK Unified Ideographs", 0x4e00, 0x9fff),
  range("Yi Syllables", 0xa000, 0xa48f),
  range("Yi Radicals", 0xa490, 0xa4cf),
  range("Hangul Syllables", 0xac00, 0xd7a3),
  range("High Surrogates", 0xd800, 0xdb7f),
  range("High Private Use Surrogates", 0xdb80, 0xdbff),
  range("Low Surrogates", 0xdc00, 0xdfff),
  range("Private Use Area", 0xe000, 0xf8ff),
  range("CJK Compatibility Ideographs", 0xf900, 0xfaff),
  range("Alphabetic Presentation Forms", 0xfb00, 0xfb4f),
  range("Arabic Presentation Forms-A", 0xfb50, 0xfdff),
  range("Combining Half Marks", 0xfe20, 0xfe2f),
  range("CJK Compatibility Forms", 0xfe30, 0xfe4f),
  range("Small Form Variants", 0xfe50, 0xfe6f),
  range("Arabic Presentation Forms-B", 0xfe70, 0xfefe),
  range("Specials (BOM)", 0xfeff, 0xfeff),
  range("Halfwidth and Fullwidth Forms", 0xff00, 0xffef),
  range("Specials", 0xfff0, 0xfffd),
]);

/** The ranges sorted by start, for a binary search per code unit (the ranges do not overlap). */
const sortedRanges: readonly CharacterRange[] = [...characterRanges].sort((a, b) => a.start - b.start);

function rangeIndexOf(codeUnit: number): number {
  let low = 0;
  let high = sortedRanges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const candidate = sortedRanges[middle];
    if (candidate === undefined) return -1;
    if (codeUnit < candidate.start) high = middle - 1;
    else if (codeUnit > candidate.end) low = middle + 1;
    else return middle;
  }
  return -1;
}

/** C: the sum of the sizes of the ranges that occur in the password, each counted once. */
export function characterSetSize(password: string): number {
  const seen = new Set<number>();
  let size = 0;
  for (let i = 0; i < password.length; i++) {
    const index = rangeIndexOf(password.charCodeAt(i));
    if (index < 0 || seen.has(index)) continue;
    seen.add(index);
    size += sortedRanges[index]?.size ?? 0;
  }
  return size;
}

/**
 * Our own list of very common passwords and fragments (international, Dutch, German and words
 * tied to this shop). Every entry is lower-case and at least 4 characters long: in strict mode
 * a password that contains any of them is banned, so shorter entries would ban too much.
 */
export const commonPasswords: readonly string[] = Object.freeze([
  // International: words
  "password",
  "passw0rd",
  "p@ssw0rd",
  "letmein",
  "welcome",
  "admin",
  "administrator",
  "login",
  "iloveyou",
  "dragon",
  "monkey",
  "football",
  "baseball",
  "basketball",
  "soccer",
  "hockey",
  "master",
  "shadow",
  "sunshine",
  "princess",
  "superman",
  "batman",
  "spiderman",
  "starwars",
  "pokemon",
  "trustno1",
  "freedom",
  "whatever",
  "michael",
  "jennifer",
  "charlie",
  "summer",
  "flower",
  "cheese",
  "computer",
  "internet",
  "secret",
  "changeme",
  "default",
  "guest",
  "hello",
  "killer",
  "hunter",
  "mustang",
  "pepper",
  "ranger",
  "harley",
  "jessica",
  "ashley",
  "buster",
  "ginger",
  "cookie",
  "chocolate",
  "matrix",
  "google",
  "liverpool",
  "chelsea",
  "arsenal",
  "barcelona",
  "london",
  // International: keyboard walks and number sequences
  "qwerty",
  "qwertz",
  "azerty",
  "asdfgh",
  "asdf",
  "zxcvbn",
  "qazwsx",
  "1q2w3e",
  "abcd",
  "abc123",
  "1234",
  "4321",
  "123123",
  "121212",
  "112233",
  "654321",
  "987654",
  "1111",
  "2222",
  "5555",
  "6666",
  "7777",
  "8888",
  "9999",
  "0000",
  "aaaa",
  // Dutch
  "wachtwoord",
  "welkom",
  "geheim",
  "hallo",
  "ajax",
  "feyenoord",
  "eindhoven",
  "amsterdam",
  "rotterdam",
  "utrecht",
  "groningen",
  "voetbal",
  "oranje",
  "holland",
  "nederland",
  "liefde",
  "schatje",
  "lieverd",
  "konijn",
  "poesje",
  "hondje",
  "zomer",
  "vakantie",
  "fiets",
  "prinses",
  "sinterklaas",
  "koekje",
  "snoepje",
  "toegang",
  "inloggen",
  // German
  "passwort",
  "kennwort",
  "geheimnis",
  "schalke",
  "bayern",
  "borussia",
  "dortmund",
  "werder",
  "berlin",
  "hamburg",
  "muenchen",
  "münchen",
  "frankfurt",
  "stuttgart",
  "deutschland",
  "fussball",
  "fußball",
  "schatz",
  "mausi",
  "liebe",
  "sommer",
  "sonne",
  "schnecke",
  "blume",
  "katze",
  "willkommen",
  "anmelden",
  "zugang",
  // This shop
  "fotohoek",
  "fotoboek",
  "fotobuch",
  "fotoalbum",
  "fotokalender",
  "fotoshop",
  "photobook",
  "fotoprint",
  "fotodruk",
  "fotodruck",
  "fotocadeau",
  "fotogeschenk",
]);

function assertOptions(minimumLength: number, scaleFactor: number): void {
  if (!Number.isFinite(minimumLength) || minimumLength < 0) {
    throw new RangeError(`minimumLength must be a finite number ≥ 0, got ${minimumLength}`);
  }
  if (!Number.isFinite(scaleFactor) || scaleFactor <= 0) {
    throw new RangeError(`scaleFactor must be a finite number > 0, got ${scaleFactor}`);
  }
}

/** Whether the password is on the ban list, under the given mode. Empty entries are ignored. */
export function isBanned(
  password: string,
  banList: readonly string[] = commonPasswords,
  banMode: "strict" | "exact" = "strict",
): boolean {
  if (banMode === "exact") return banList.some((entry) => entry !== "" && entry === password);
  const lower = password.toLowerCase();
  return banList.some((entry) => entry !== "" && lower.includes(entry.toLowerCase()));
}

function levelOf(percent: number, valid: boolean): StrengthLevel {
  if (percent < 25) return "weak";
  if (percent < 50 || !valid) return "fair";
  if (percent < 75) return "good";
  return "strong";
}

export function passwordStrength(password: string, options: StrengthOptions = {}): Strength {
  const minimumLength = options.minimumLength ?? defaultMinimumLength;
  const scaleFactor = options.scaleFactor ?? 1;
  assertOptions(minimumLength, scaleFactor);

  const length = password.length;
  const banned = isBanned(password, options.banList ?? commonPasswords, options.banMode ?? "strict");
  const size = banned ? 1 : characterSetSize(password);
  // C ≤ 1 (banned, empty, only out-of-range characters, only a space) gives 0; never −Infinity or NaN.
  const score = length === 0 || size <= 1 ? 0 : (length * Math.log(size)) / scaleFactor;
  const percent = Math.min(100, Math.max(0, (score / maximumComplexity) * 100));
  const tooShort = length < minimumLength;
  const valid = score > minimumComplexity && !tooShort && !banned;
  return { score, percent, valid, banned, tooShort, level: levelOf(percent, valid) };
}
