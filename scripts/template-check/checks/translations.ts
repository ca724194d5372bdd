import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { projectRoot } from "../../../server/config.ts";
import { type Locale, locales } from "../../../server/i18n/locales.ts";
import { lookup, type Messages, missingText } from "../../../server/i18n/translate.ts";
import type { PageView } from "../dom.ts";
import type { Finding } from "../report.ts";

const missingPattern = new RegExp(`${missingText("")}([\\w.$-]+)`, "g");

/**
 * A text key the page asked for that its language does not have: the page shows
 * TRANSLATION MISSING FOR: <key>. The message names every locale file that lacks it, so
 * the line is the same whichever language's page showed it first.
 */
export function missingTranslations(view: PageView, messages: Record<Locale, Messages>): Finding[] {
  const keys = new Set([...view.page.html.matchAll(missingPattern)].map((m) => m[1] as string));
  return [...keys].map((key) => {
    const lacking = locales
      .filter((l) => lookup(messages[l], key) === undefined)
      .map((l) => `locales/${l}.json`);
    return {
      message: `text key "${key}" is missing in ${lacking.length > 0 ? lacking.join(" and ") : `locales/${view.page.locale}.json`}`,
      texts: [`"${key}"`, `'${key}'`, `\`${key}\``],
    };
  });
}

/** Every text of a locale file by its dotted key, with the line it is on. */
export function keyLines(json: string): Map<string, number> {
  const out = new Map<string, number>();
  const path: string[] = [];
  /** Per open object: whether the string just read is a key (awaiting its colon). */
  const stack: Array<{ key: string | undefined }> = [];
  let line = 1;
  let pendingKey: string | undefined;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === "\n") line++;
    else if (c === '"') {
      let end = i + 1;
      while (end < json.length && json[end] !== '"') end += json[end] === "\\" ? 2 : 1;
      const text = JSON.parse(json.slice(i, end + 1)) as string;
      i = end;
      const rest = /^\s*:/.exec(json.slice(i + 1, i + 40));
      if (rest && stack.length > 0) pendingKey = text;
      else if (pendingKey !== undefined) {
        out.set([...path, pendingKey].join("."), line);
        pendingKey = undefined;
      }
    } else if (c === "{") {
      stack.push({ key: pendingKey });
      if (pendingKey !== undefined) path.push(pendingKey);
      pendingKey = undefined;
    } else if (c === "}") {
      const closed = stack.pop();
      if (closed?.key !== undefined) path.pop();
    } else if (pendingKey !== undefined && /[-0-9tfn[]/.test(c ?? "")) {
      // A number, true, false, null or a list: not a text, but a key all the same.
      out.set([...path, pendingKey].join("."), line);
      pendingKey = undefined;
    }
  }
  return out;
}

const languageName: Record<Locale, string> = { nl: "Dutch", de: "German" };

/** A key one locale file has and another does not: the other language would show TRANSLATION MISSING. */
export function localeDifferences(localesDir = resolve(projectRoot, "locales")): Finding[] {
  const files = locales.map((locale) => {
    const file = resolve(localesDir, `${locale}.json`);
    return {
      locale,
      name: relative(projectRoot, file).replaceAll("\\", "/"),
      keys: keyLines(readFileSync(file, "utf8")),
    };
  });
  const findings: Finding[] = [];
  for (const from of files) {
    for (const to of files) {
      if (from === to) continue;
      for (const [key, line] of from.keys) {
        if (to.keys.has(key)) continue;
        findings.push({
          message: `text key "${key}" has no ${languageName[to.locale]} text: ${to.name} lacks it`,
          place: { file: from.name, line },
        });
      }
    }
  }
  return findings;
}
