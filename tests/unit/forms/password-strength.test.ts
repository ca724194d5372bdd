import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  characterRanges,
  characterSetSize,
  commonPasswords,
  isBanned,
  maximumComplexity,
  minimumComplexity,
  passwordStrength,
  type StrengthOptions,
} from "../../../server/forms/password-strength.ts";

/** Complexify's own defaults: no ban list. */
const bare: StrengthOptions = { banList: [] };

/** Any string of UTF-16 code units, lone surrogates and control characters included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const anyPassword = fc.string({ unit: codeUnit, maxLength: 40 });
/** Mostly printable passwords, so that the interesting (valid, banned) cases do occur. */
const typedPassword = fc.string({
  unit: fc.constantFrom(..."aAbBzZ019!?-_ äß€中😀wachtpsoerd"),
  maxLength: 30,
});
const password = fc.oneof(anyPassword, typedPassword, fc.string({ unit: "binary", maxLength: 30 }));
const options = fc.record(
  {
    minimumLength: fc.integer({ min: 0, max: 20 }),
    scaleFactor: fc.double({ min: 0.1, max: 10, noNaN: true }),
    banList: fc.oneof(fc.constant(commonPasswords), fc.array(fc.string({ maxLength: 6 }), { maxLength: 5 })),
    banMode: fc.constantFrom("strict" as const, "exact" as const),
  },
  { requiredKeys: [] },
);

describe("the constants", () => {
  it("are Complexify's", () => {
    expect(minimumComplexity).toBe(49);
    expect(maximumComplexity).toBe(120);
  });
});

describe("the character ranges", () => {
  it("are Complexify's 95 ranges with sizes totalling 59,975", () => {
    expect(characterRanges).toHaveLength(95);
    expect(characterRanges.reduce((sum, r) => sum + r.size, 0)).toBe(59_975);
    for (const r of characterRanges) {
      expect(r.size).toBe(r.end - r.start + 1);
      expect(r.start).toBeGreaterThanOrEqual(0);
      expect(r.end).toBeLessThanOrEqual(0xffff);
    }
  });

  it("do not overlap, so each code unit belongs to at most one range", () => {
    const sorted = [...characterRanges].sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      expect(sorted[i]?.start).toBeGreaterThan(sorted[i - 1]?.end ?? -1);
    }
  });

  it("make all printable ASCII together 95", () => {
    let ascii = "";
    for (let c = 0x20; c <= 0x7e; c++) ascii += String.fromCharCode(c);
    expect(characterSetSize(ascii)).toBe(95);
  });

  it("count each range once, however often it occurs", () => {
    expect(characterSetSize("a")).toBe(26);
    expect(characterSetSize("aaaazzzz")).toBe(26);
    expect(characterSetSize("aZ")).toBe(52);
    expect(characterSetSize("aZ5")).toBe(62);
  });

  it("add 128 for an umlaut or ß (Latin-1 Supplement), once", () => {
    const base = characterSetSize("Fotoboek2024");
    expect(characterSetSize("Fotoböek2024")).toBe(base + 128);
    expect(characterSetSize("FotoboekÜß2024")).toBe(base + 128);
  });

  it("add 48 for €", () => {
    expect(characterSetSize("Fotoboek2024€")).toBe(characterSetSize("Fotoboek2024") + 48);
  });

  it("add 896 + 1024 for an astral emoji, which counts as two code units", () => {
    expect(characterSetSize("Fotoboek2024😀")).toBe(characterSetSize("Fotoboek2024") + 896 + 1024);
    expect(characterSetSize("😀")).toBe(1920);
    expect("😀").toHaveLength(2);
    expect(passwordStrength("😀", bare).score).toBeCloseTo(2 * Math.log(1920), 10);
  });

  it("give 0 for characters in no range", () => {
    expect(characterSetSize("")).toBe(0);
    expect(characterSetSize("\t\n\r\u0000\u007f\u0500")).toBe(0);
  });
});

describe("passwordStrength: the reference's boundary examples", () => {
  it("Fotoboek2024: C 62, score ≈ 49.5256, percent ≈ 41.2713, valid", () => {
    expect(characterSetSize("Fotoboek2024")).toBe(62);
    const s = passwordStrength("Fotoboek2024", bare);
    expect(s.score).toBeCloseTo(49.5256, 4);
    expect(s.percent).toBeCloseTo(41.2713, 4);
    expect(s.valid).toBe(true);
    expect(s.banned).toBe(false);
    expect(s.tooShort).toBe(false);
  });

  it("Fotoalbum12: C 62, score ≈ 45.3985, percent ≈ 37.8321, not valid", () => {
    expect(characterSetSize("Fotoalbum12")).toBe(62);
    const s = passwordStrength("Fotoalbum12", bare);
    expect(s.score).toBeCloseTo(45.3985, 4);
    expect(s.percent).toBeCloseTo(37.8321, 4);
    expect(s.valid).toBe(false);
    expect(s.tooShort).toBe(false);
  });
});

describe("passwordStrength: length", () => {
  it("needs 8 characters by default, however high the score", () => {
    const seven = "aB1!中€ä";
    expect(seven).toHaveLength(7);
    const s = passwordStrength(seven, bare);
    expect(s.score).toBeGreaterThan(minimumComplexity);
    expect(s.tooShort).toBe(true);
    expect(s.valid).toBe(false);
    expect(passwordStrength(`${seven}x`, bare)).toMatchObject({ tooShort: false, valid: true });
  });

  it("takes another minimum length", () => {
    expect(passwordStrength("aB1!中€ä", { ...bare, minimumLength: 7 }).valid).toBe(true);
    expect(passwordStrength("Fotoboek2024", { ...bare, minimumLength: 13 })).toMatchObject({
      tooShort: true,
      valid: false,
    });
  });

  it("counts UTF-16 code units, as Complexify does", () => {
    expect(passwordStrength("abcdef😀", bare).tooShort).toBe(false);
    expect(passwordStrength("abcde😀", bare).tooShort).toBe(true);
  });
});

describe("passwordStrength: ban list", () => {
  const list = ["wachtwoord"];

  it("in strict mode bans a password that contains an entry, case-insensitively", () => {
    const s = passwordStrength("MijnWachtwoord2024!", { banList: list, banMode: "strict" });
    expect(s.banned).toBe(true);
    expect(passwordStrength("MijnWachtwoord2024!", { banList: list }).banned).toBe(true);
    expect(passwordStrength("Wachtwoord", { banList: ["WACHTWOORD"] }).banned).toBe(true);
  });

  it("in exact mode bans only an exact, case-sensitive match", () => {
    expect(passwordStrength("MijnWachtwoord2024!", { banList: list, banMode: "exact" }).banned).toBe(false);
    expect(passwordStrength("wachtwoord", { banList: list, banMode: "exact" }).banned).toBe(true);
    expect(passwordStrength("Wachtwoord", { banList: list, banMode: "exact" }).banned).toBe(false);
  });

  it("makes a banned password score 0 and percent 0, weak and not valid", () => {
    const s = passwordStrength("MijnWachtwoord2024!MetNogVeelMeerTekensErAchter", { banList: list });
    expect(s).toEqual({ score: 0, percent: 0, valid: false, banned: true, tooShort: false, level: "weak" });
  });

  it("ignores empty entries (which would otherwise ban everything in strict mode)", () => {
    expect(isBanned("Fotoboek2024", [""], "strict")).toBe(false);
    expect(isBanned("", [""], "exact")).toBe(false);
  });

  it("uses our own common-password list in strict mode by default", () => {
    for (const banned of [
      "Passwort123",
      "Hallo1234",
      "MijnWachtwoord!",
      "Feyenoord1908",
      "Fotoboek2024",
      "QWERTZ99",
    ]) {
      expect(passwordStrength(banned).banned, banned).toBe(true);
    }
    expect(passwordStrength("Zeeuwse-Kust_bij.Vlissingen7")).toMatchObject({ banned: false, valid: true });
  });

  it("checks the default list exactly in exact mode", () => {
    expect(passwordStrength("wachtwoord", { banMode: "exact" }).banned).toBe(true);
    expect(passwordStrength("Wachtwoord", { banMode: "exact" }).banned).toBe(false);
    expect(passwordStrength("Wachtwoord1", { banMode: "exact" }).banned).toBe(false);
  });
});

describe("commonPasswords", () => {
  it("holds about 150 unique, lower-case entries of at least 4 characters", () => {
    expect(commonPasswords.length).toBeGreaterThanOrEqual(140);
    expect(commonPasswords.length).toBeLessThanOrEqual(200);
    expect(new Set(commonPasswords).size).toBe(commonPasswords.length);
    for (const entry of commonPasswords) {
      expect(entry.length, entry).toBeGreaterThanOrEqual(4);
      expect(entry, entry).toBe(entry.toLowerCase());
    }
  });

  it("covers international, Dutch, German and shop words", () => {
    const required = [
      ...["password", "qwerty", "123456", "1234", "abcd", "letmein", "welcome", "admin", "iloveyou"],
      ...["dragon", "monkey", "football"],
      ...[
        "wachtwoord",
        "welkom",
        "geheim",
        "hallo",
        "ajax",
        "feyenoord",
        "amsterdam",
        "rotterdam",
        "voetbal",
      ],
      ...["passwort", "kennwort", "schalke", "bayern", "berlin", "fussball", "schatz"],
      ...["fotohoek", "fotoboek", "fotobuch"],
    ];
    for (const word of required) expect(isBanned(word, commonPasswords, "strict"), word).toBe(true);
    for (const word of required.filter((w) => w !== "123456")) expect(commonPasswords, word).toContain(word);
  });
});

describe("passwordStrength: edge cases", () => {
  it("gives 0 for an empty password", () => {
    expect(passwordStrength("", bare)).toEqual({
      score: 0,
      percent: 0,
      valid: false,
      banned: false,
      tooShort: true,
      level: "weak",
    });
  });

  it("gives 0, not −Infinity, for characters in no range (deliberately unlike Complexify)", () => {
    for (const pw of ["\t", "\t\t\t\t\t\t\t\t\t\t", "\n\r\n", "\u007f\u0000"]) {
      const s = passwordStrength(pw, bare);
      expect(s.score, JSON.stringify(pw)).toBe(0);
      expect(s.percent, JSON.stringify(pw)).toBe(0);
      expect(s.valid).toBe(false);
    }
  });

  it("gives 0 for spaces only (C = 1)", () => {
    expect(passwordStrength("          ", bare).score).toBe(0);
  });

  it("caps percent at 100 for a very long password, and stays finite where Complexify's pow would overflow", () => {
    const long = "Aa1!".repeat(50);
    expect(passwordStrength(long, bare)).toMatchObject({ percent: 100, valid: true, level: "strong" });
    const huge = passwordStrength("中".repeat(1000), bare);
    expect(Number.isFinite(huge.score)).toBe(true);
    expect(huge.score).toBeCloseTo(1000 * Math.log(20992), 6);
    expect(huge.percent).toBe(100);
  });

  it("divides the score by the scale factor", () => {
    const plain = passwordStrength("Fotoboek2024", bare);
    const halved = passwordStrength("Fotoboek2024", { ...bare, scaleFactor: 2 });
    expect(halved.score).toBeCloseTo(plain.score / 2, 10);
    expect(halved.valid).toBe(false);
  });

  it("rejects nonsensical options", () => {
    for (const scaleFactor of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => passwordStrength("x", { scaleFactor })).toThrow(RangeError);
    }
    for (const minimumLength of [-1, Number.NaN]) {
      expect(() => passwordStrength("x", { minimumLength })).toThrow(RangeError);
    }
  });
});

describe("passwordStrength: level", () => {
  it("is weak below 25 %", () => {
    expect(passwordStrength("abcdefgh", bare)).toMatchObject({ level: "weak", valid: false });
  });

  it("is fair from 25 % to below 50 %, valid or not", () => {
    expect(passwordStrength("Fotoalbum12", bare)).toMatchObject({ level: "fair", valid: false });
    expect(passwordStrength("Fotoboek2024", bare)).toMatchObject({ level: "fair", valid: true });
  });

  it("is good when valid from 50 % to below 75 %", () => {
    const s = passwordStrength("Fotoboek2024!x", bare);
    expect(s.percent).toBeGreaterThanOrEqual(50);
    expect(s.percent).toBeLessThan(75);
    expect(s).toMatchObject({ level: "good", valid: true });
  });

  it("is strong when valid from 75 %", () => {
    const s = passwordStrength("Aa1!".repeat(6), bare);
    expect(s.percent).toBeGreaterThanOrEqual(75);
    expect(s).toMatchObject({ level: "strong", valid: true });
  });

  it("is never above fair for a password that is not valid", () => {
    const s = passwordStrength("aB1!中€ä", bare);
    expect(s.percent).toBeGreaterThanOrEqual(50);
    expect(s).toMatchObject({ level: "fair", valid: false });
  });
});

describe("passwordStrength: properties", () => {
  it("percent is always a number within [0, 100], and score never negative or NaN", () => {
    fc.assert(
      fc.property(password, options, (pw, opts) => {
        const s = passwordStrength(pw, opts);
        expect(s.percent).toBeGreaterThanOrEqual(0);
        expect(s.percent).toBeLessThanOrEqual(100);
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(Number.isNaN(s.score)).toBe(false);
      }),
    );
  });

  it("adding a character anywhere never lowers the score of an unbanned password", () => {
    fc.assert(
      fc.property(
        password,
        fc.oneof(codeUnit, fc.string({ unit: "binary", minLength: 1, maxLength: 1 })),
        fc.nat(),
        fc.constantFrom<readonly string[]>([], commonPasswords),
        (pw, extra, at, banList) => {
          const i = at % (pw.length + 1);
          const longer = pw.slice(0, i) + extra + pw.slice(i);
          const before = passwordStrength(pw, { banList });
          const after = passwordStrength(longer, { banList });
          fc.pre(!before.banned && !after.banned);
          expect(after.score).toBeGreaterThanOrEqual(before.score);
        },
      ),
    );
  });

  it("valid implies a percent above 40.8 and a level of at least fair", () => {
    fc.assert(
      fc.property(password, options, (pw, opts) => {
        const s = passwordStrength(pw, opts);
        if (s.valid) {
          expect(s.percent).toBeGreaterThan(40.8);
          expect(s.level).not.toBe("weak");
        } else {
          expect(["weak", "fair"]).toContain(s.level);
        }
      }),
    );
  });

  it("matches the formula length × ln(C) / scale for unbanned passwords", () => {
    fc.assert(
      fc.property(password, fc.double({ min: 0.1, max: 10, noNaN: true }), (pw, scaleFactor) => {
        const s = passwordStrength(pw, { banList: [], scaleFactor });
        const c = characterSetSize(pw);
        const expected = pw.length === 0 || c <= 1 ? 0 : (pw.length * Math.log(c)) / scaleFactor;
        expect(s.score).toBeCloseTo(expected, 9);
        expect(s.percent).toBeCloseTo(Math.min(100, (expected / 120) * 100), 9);
      }),
    );
  });
});
