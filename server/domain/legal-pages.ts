import { readFileSync } from "node:fs";
import type { Token } from "markdown-it";
import MarkdownIt from "markdown-it";
import { type Locale, locales } from "../i18n/locales.ts";

/**
 * The legal pages (company details, terms, withdrawal, shipping, complaints, privacy,
 * cookies, accessibility): Markdown that editors own in content/legal/<locale>/, rendered
 * once at start-up into the shop's layout. Raw HTML in a file is shown as text, never as
 * markup (markdown-it with `html: false`), so a typo cannot inject a script or break the
 * page; links may only go to a route (`route:<id>`), an anchor on the page, https, mailto or
 * tel. Facts the shop already knows (the company, shipping costs, production times,
 * retention windows) come in through `{placeholders}`, so they are typed in one place only.
 */

/** Each page's route id; its file is content/legal/<locale>/<file>.md. */
export const legalPageFiles = {
  legalNotice: "legal-notice",
  terms: "terms",
  withdrawal: "withdrawal",
  shippingAndDelivery: "shipping-and-delivery",
  returnsAndComplaints: "returns-and-complaints",
  privacy: "privacy",
  cookies: "cookies",
  accessibility: "accessibility",
} as const;

export type LegalPageId = keyof typeof legalPageFiles;
export const legalPageIds = Object.keys(legalPageFiles) as LegalPageId[];

export interface LegalPage {
  /** The file's first line, a `# heading`. */
  title: string;
  /** The first paragraph as plain text, cut to a search engine's length. */
  description: string;
  /** Rendered from Markdown that cannot hold markup of its own: safe for <%~ %>. */
  html: string;
  /**
   * The page as plain text for a mail: headings and paragraphs on lines of their own, lists
   * with their marks, a link as its words with the address after them, the shop's own links
   * made absolute with `origin`.
   */
  mailText(origin: string): string;
  /** Each heading, paragraph, list item and table cell below the title, as plain text, for the search. */
  text: string[];
}

export interface LegalPages {
  page(id: LegalPageId, locale: Locale): LegalPage;
  /**
   * The page as plain text for a mail, the durable copy the law asks for: its links to the
   * shop's own pages made absolute with `origin`.
   */
  mailText(id: LegalPageId, locale: Locale, origin: string): string;
}

export class LegalPageError extends Error {
  override name = "LegalPageError";
}

/** What a placeholder stands for: Markdown, ready to be put in the file's place. */
export type PlaceholderValues = Record<string, string>;

export interface LegalPageSources {
  /** The file's text, or undefined when there is no such file. */
  read(file: string): string | undefined;
  /** Where the file is, for messages: content/legal/nl/terms.md */
  name(file: string): string;
}

export interface LegalPageOptions {
  values: (locale: Locale) => PlaceholderValues;
  /** The path of a route in a locale, undefined for an id the route table does not know. */
  routePath: (id: string, locale: Locale) => string | undefined;
}

const placeholder = /\\?\{([A-Za-z][\w.]*)\}/g;
const allowedTarget = /^(route:[A-Za-z]+(#[\w-]+)?|#[\w-]+|https:\/\/\S+|mailto:\S+|tel:\+?[\d ]+)$/;

/** Text as Markdown shows it literally: every ASCII punctuation mark that could mean something, escaped. */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, "\\$&");
}

/** An id for a heading, from its words: "Het modelformulier" -> "het-modelformulier". */
export function headingId(text: string): string {
  return (
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/ß/g, "ss")
      .replace(/[^a-z0-9]+/g, "-")
      // An id begins with a letter: "§ 1 Vertragspartner" and "1. Wie we zijn" lose their number.
      .replace(/^[\d-]+|-$/g, "")
  );
}

function lineOf(source: string, index: number): number {
  return source.slice(0, index).split("\n").length;
}

function fillPlaceholders(source: string, values: PlaceholderValues, where: string): string {
  return source.replace(placeholder, (whole, name: string, offset: number) => {
    // \{name} is an editor's way to write the braces themselves.
    if (whole.startsWith("\\")) return whole;
    const value = values[name];
    if (value === undefined) {
      const known = Object.keys(values).sort().join(", ");
      throw new LegalPageError(
        `${where}:${lineOf(source, offset)}: unknown placeholder {${name}}; known are ${known}`,
      );
    }
    return value;
  });
}

// A line break in the file is one on the page too: addresses and the model form are lines.
const markdown = new MarkdownIt({ html: false, breaks: true, linkify: false, typographer: false });
// Pictures are the catalogue's business; a legal text is words.
markdown.disable("image");
// markdown-it would leave a javascript: link as plain text without a word; every link is let
// through here so that renderLegalPage checks it against allowedTarget and names the line.
markdown.validateLink = () => true;

function plainTextOf(token: Token | undefined): string {
  if (!token) return "";
  if (!token.children) return token.content;
  return token.children
    .map((child) => (child.type === "softbreak" || child.type === "hardbreak" ? " " : child.content))
    .join("");
}

function descriptionOf(tokens: Token[]): string {
  const start = tokens.findIndex((t) => t.type === "paragraph_open");
  const text = plainTextOf(tokens[start + 1])
    .replace(/\s+/g, " ")
    .trim();
  if (text.length <= 160) return text;
  const cut = text.slice(0, 157);
  return `${cut.slice(0, cut.lastIndexOf(" "))} …`;
}

/**
 * An inline run as a mail shows it: the words as markdown-it read them (escapes gone), line
 * breaks kept, and each link's address in brackets after its words, unless the words are
 * the address (an e-mail address, a URL written out) or it leads to a heading of the page.
 */
function mailInline(token: Token, origin: string): string {
  let text = "";
  let linkStart = 0;
  let href = "";
  for (const child of token.children ?? []) {
    if (child.type === "softbreak" || child.type === "hardbreak") text += "\n";
    else if (child.type === "link_open") {
      href = String(child.attrGet("href") ?? "");
      linkStart = text.length;
    } else if (child.type === "link_close") {
      const words = text.slice(linkStart);
      const address = href.startsWith("/") ? `${origin}${href}` : href.replace(/^(mailto|tel):/, "");
      // A link to a heading of the same page leads nowhere in a mail: its words only.
      if (words !== address && !href.startsWith("#")) text += ` (${address})`;
    } else text += child.content;
  }
  return text;
}

/**
 * The page's tokens as the plain text of a mail: a blank line between headings and
 * paragraphs, a list's items and a table's rows on consecutive lines.
 */
function mailTextOf(tokens: readonly Token[], origin: string): string {
  // A list (with the lists inside it) or a table is one group: its lines stay together.
  const blocks: Array<{ kind: "text" | "item" | "row"; text: string; group: number }> = [];
  const lists: Array<{ ordered: boolean }> = [];
  let group = 0;
  let row: string[] | undefined;
  let mark = "";
  for (const token of tokens) {
    switch (token.type) {
      case "bullet_list_open":
      case "ordered_list_open":
        if (lists.length === 0) group++;
        lists.push({ ordered: token.type === "ordered_list_open" });
        break;
      case "table_open":
        group++;
        break;
      case "bullet_list_close":
      case "ordered_list_close":
        lists.pop();
        break;
      case "list_item_open":
        mark = lists.at(-1)?.ordered ? `${token.info}${token.markup} ` : "- ";
        break;
      case "tr_open":
        row = [];
        break;
      case "tr_close":
        blocks.push({ kind: "row", text: (row ?? []).join(" | "), group });
        row = undefined;
        break;
      case "inline": {
        const text = mailInline(token, origin);
        if (row) row.push(text);
        else if (lists.length > 0) {
          // An item's first paragraph follows its mark; a later one is indented under it.
          const indent = "  ".repeat(lists.length - 1);
          blocks.push({ kind: "item", text: `${indent}${mark || "  "}${text}`, group });
          mark = "";
        } else blocks.push({ kind: "text", text, group });
        break;
      }
      case "hr":
        blocks.push({ kind: "text", text: "----------------------------------------", group });
        break;
    }
  }
  return blocks
    .map((block, i) => {
      const before = blocks[i - 1];
      const together = before && block.kind !== "text" && before.group === block.group;
      return i === 0 || together ? block.text : `\n${block.text}`;
    })
    .join("\n");
}

/** One page in one locale: its placeholders filled, its links checked, its headings given ids. */
export function renderLegalPage(
  source: string,
  where: string,
  locale: Locale,
  options: LegalPageOptions,
): LegalPage {
  const filled = fillPlaceholders(source, options.values(locale), where);
  const env = {};
  const tokens = markdown.parse(filled, env);
  const first = tokens[0];
  if (first?.type !== "heading_open" || first.tag !== "h1") {
    throw new LegalPageError(`${where}:1: the page must start with its title, a line "# …"`);
  }
  if (tokens.filter((t) => t.type === "heading_open" && t.tag === "h1").length > 1) {
    throw new LegalPageError(`${where}: only the first line may be a "# " title; use "## " below it`);
  }
  const title = plainTextOf(tokens[1]).trim();
  const ids = new Set<string>();
  for (const [i, token] of tokens.entries()) {
    if (token.type === "heading_open" && token.tag !== "h1") {
      let id = headingId(plainTextOf(tokens[i + 1])) || "section";
      for (let n = 2; ids.has(id); n++) id = `${headingId(plainTextOf(tokens[i + 1]))}-${n}`;
      ids.add(id);
      token.attrSet("id", id);
    }
    for (const child of token.children ?? []) {
      if (child.type !== "link_open") continue;
      const target = String(child.attrGet("href") ?? "");
      const line = (token.map?.[0] ?? 0) + 1;
      if (!allowedTarget.test(target)) {
        throw new LegalPageError(
          `${where}:${line}: link target ${JSON.stringify(target)} must be route:<id>, #anchor, https://…, mailto: or tel:`,
        );
      }
      if (target.startsWith("route:")) {
        const [id = "", anchor] = target.slice(6).split("#");
        const path = options.routePath(id, locale);
        if (path === undefined) throw new LegalPageError(`${where}:${line}: no route "${id}" to link to`);
        child.attrSet("href", anchor ? `${path}#${anchor}` : path);
      }
    }
  }
  for (const token of tokens) {
    if (token.type === "table_open") {
      token.attrSet("class", "legal-table");
      // A table wider than a small screen scrolls inside itself; a keyboard must reach it too.
      token.attrSet("tabindex", "0");
    }
  }
  return {
    title,
    description: descriptionOf(tokens),
    html: markdown.renderer.render(tokens, markdown.options, env),
    mailText: (origin) => mailTextOf(tokens, origin),
    text: tokens
      .slice(3)
      .filter((token) => token.type === "inline")
      .map((token) => plainTextOf(token).replace(/\s+/g, " ").trim())
      .filter((text) => text !== ""),
  };
}

/** Reads and renders every legal page in every locale; the first mistake stops the shop with its file and line. */
export function buildLegalPages(sources: LegalPageSources, options: LegalPageOptions): LegalPages {
  const pages = new Map<string, LegalPage>();
  for (const id of legalPageIds) {
    for (const locale of locales) {
      const file = `${locale}/${legalPageFiles[id]}.md`;
      const source = sources.read(file);
      if (source === undefined) throw new LegalPageError(`${sources.name(file)}: missing`);
      pages.set(`${id} ${locale}`, renderLegalPage(source, sources.name(file), locale, options));
    }
  }
  const page = (id: LegalPageId, locale: Locale) => pages.get(`${id} ${locale}`) as LegalPage;
  return {
    page,
    mailText: (id, locale, origin) => page(id, locale).mailText(origin),
  };
}

/** The files in content/legal/, as the shop and the template check read them. */
export function legalPageFolder(dir: URL | string): LegalPageSources {
  const base = typeof dir === "string" ? dir : dir.pathname;
  return {
    read(file) {
      try {
        return readFileSync(`${base}/${file}`, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw err;
      }
    },
    name: (file) => `content/legal/${file}`,
  };
}
