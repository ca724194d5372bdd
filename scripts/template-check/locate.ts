import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** A place in the project: a file named from the project (views/… even for a copy) and a line when known. */
export interface Place {
  file: string;
  line?: number;
}

export const placeText = (place: Place) => (place.line ? `${place.file}:${place.line}` : place.file);

interface Template {
  file: string;
  lines: string[];
}

/** An element as the page has it, for finding the template line that writes it. */
export interface ElementPrint {
  tag: string;
  attributes: ReadonlyArray<{ name: string; value: string | undefined }>;
  /** The attribute the problem is about, when it is about one. */
  attribute?: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An attribute name as a whole word: data-lazy-src is not found inside data-lazy-srcset. */
export const attributeName = (name: string) => new RegExp(`(?<![\\w-])${escapeRegExp(name)}(?![\\w-])`);

/**
 * Every template of a views folder, searched for the text that wrote a problem. The page's
 * own template is searched first, then the others in a fixed order (layouts, pages,
 * partials), so the answer is the same on every run.
 */
export class TemplateIndex {
  private readonly templates: Template[];

  constructor(views: string) {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith(".eta")) files.push(full);
      }
    };
    walk(views);
    this.templates = files
      .map((full) => ({
        file: `views/${relative(views, full).replaceAll("\\", "/")}`,
        lines: readFileSync(full, "utf8").split("\n"),
      }))
      .sort((a, b) => a.file.localeCompare(b.file));
  }

  private ordered(first: string | undefined): Template[] {
    if (!first) return this.templates;
    const own = this.templates.find((t) => t.file === first);
    return own ? [own, ...this.templates.filter((t) => t !== own)] : this.templates;
  }

  /** The first line that holds one of the texts, trying each text in turn, most telling first. */
  find(texts: ReadonlyArray<string | RegExp>, first?: string): Place | undefined {
    for (const text of texts) {
      for (const template of this.ordered(first)) {
        const index = template.lines.findIndex((line) =>
          typeof text === "string" ? line.includes(text) : text.test(line),
        );
        if (index >= 0) return { file: template.file, line: index + 1 };
      }
    }
    return undefined;
  }

  /**
   * The line that most likely writes an element: one that opens the same tag and names the
   * most of its attributes, written out (more so with the same value) or as keys of an
   * it.attrs({…}) call. A tag whose class starts differently writes another element; an
   * attribute the tag writes that the element lacks counts against it.
   */
  findElement(print: ElementPrint, first?: string): Place | undefined {
    const opens = new RegExp(`<${escapeRegExp(print.tag)}(?![\\w-])`, "i");
    const has = new Map(print.attributes.map((a) => [a.name, a.value]));
    const firstClass = (has.get("class") ?? "").trim().split(/\s+/)[0] ?? "";
    let best: { place: Place; score: number } | undefined;
    for (const template of this.ordered(first)) {
      template.lines.forEach((line, index) => {
        const at = line.search(opens);
        if (at < 0) return;
        const tag = startTag(
          template.lines
            .slice(index, index + 4)
            .join("\n")
            .slice(at),
        );
        const written = [...tag.literal.matchAll(/\s([a-zA-Z_:][-\w:.]*)(?:="([^"]*)")?/g)].map((m) => ({
          name: m[1] as string,
          value: m[2],
        }));
        const writtenClass = written.find((w) => w.name === "class")?.value;
        let score = 0;
        if (writtenClass !== undefined && !writtenClass.startsWith("\u0000")) {
          if ((writtenClass.trim().split(/\s+/)[0] ?? "") !== firstClass) return;
          score += 5;
        }
        for (const { name, value } of written) {
          if (name === "class") continue;
          if (!has.has(name)) {
            score -= 2;
            continue;
          }
          score += name === print.attribute ? 5 : 2;
          const own = has.get(name);
          if (value !== undefined && own === value && value.length >= 3 && !/^\d+$/.test(value)) score += 3;
        }
        const writtenNames = new Set(written.map((w) => w.name));
        for (const { name } of print.attributes) {
          if (writtenNames.has(name)) continue;
          if (objectKey(name).test(tag.code)) score += name === print.attribute ? 4 : 1;
          // A tag without Eta in it writes all its attributes: one it does not write is another element's.
          else if (tag.code === "") score -= 1;
        }
        if (!best || score > best.score) best = { place: { file: template.file, line: index + 1 }, score };
      });
    }
    return best && best.score >= 3 ? best.place : undefined;
  }
}

/** A key of an object literal, as in it.attrs({ src: …, "data-carousel-src": … }). */
const objectKey = (name: string) => new RegExp(`(?<![\\w.-])["']?${escapeRegExp(name)}["']?\\s*:`);

/**
 * A start tag as a template writes it, from "<tag" to its ">": the literal part (each Eta
 * block replaced by a marker) and the code of its Eta blocks, where it.attrs({…}) names
 * attributes.
 */
function startTag(text: string): { literal: string; code: string } {
  let literal = "";
  let code = "";
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("<%", i)) {
      const end = text.indexOf("%>", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      code += ` ${text.slice(i + 2, stop - 2)}`;
      literal += "\u0000";
      i = stop;
      continue;
    }
    const c = text[i] as string;
    if (c === ">" && i > 0) break;
    literal += c;
    i++;
  }
  return { literal, code };
}
