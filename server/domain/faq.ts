import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { type Locale, locales } from "../i18n/locales.ts";

/**
 * The FAQ is content, owned by editors: one file per locale (content/faq/nl.json,
 * content/faq/de.json) with topics and their questions. Both files hold the same topic
 * and question ids, so the language switcher always finds the same page in the other
 * language; the shop checks that, and the rest of the files, when it starts. It also
 * notices when an editor saves a file (followChanges) and shows the new content within
 * seconds, without a restart; a file that fails the checks is reported and the last good
 * content stays.
 *
 * Answers are paragraphs of plain text with one kind of markup, a link:
 * [the contact form](route:contact), [PostNL](https://www.postnl.nl/) or [text](/path).
 */

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by -");
const text = z.string().trim().min(1);

const linkPattern = /\[([^\]]+)\]\(([^)\s]+)\)/g;
const linkTarget = /^(route:[a-zA-Z]+|\/[\w\-./?=&#]*|https:\/\/[^\s"<>]+|mailto:[^\s"<>]+|tel:\+?[\d ]+)$/;

const answer = z
  .array(text)
  .min(1)
  .superRefine((paragraphs, ctx) => {
    paragraphs.forEach((paragraph, index) => {
      for (const match of paragraph.matchAll(linkPattern)) {
        if (!linkTarget.test(match[2] ?? "")) {
          ctx.addIssue({
            code: "custom",
            path: [index],
            message: `link target ${JSON.stringify(match[2])} must be route:<id>, /path, https://…, mailto: or tel:`,
          });
        }
      }
    });
  });

const questionSchema = z.object({ id: slug, slug, question: text, answer });
const topicSchema = z.object({
  id: slug,
  slug,
  title: text,
  intro: text,
  questions: z.array(questionSchema).min(1),
});
const fileSchema = z.object({ topics: z.array(topicSchema).min(1) });

export type FaqQuestion = z.infer<typeof questionSchema>;
export type FaqTopic = z.infer<typeof topicSchema>;

/** One version of the FAQ's content, as read from the files. */
export interface FaqContent {
  topics(locale: Locale): readonly FaqTopic[];
  topicBySlug(locale: Locale, slug: string): FaqTopic | undefined;
  topicById(locale: Locale, id: string): FaqTopic | undefined;
  /** Every route id the answers link to, checked against the route table. */
  linkedRoutes(): string[];
}

/** The FAQ as the shop uses it: always the latest good content of the files. */
export interface Faq extends FaqContent {
  /** Changes whenever new content is taken in, so cached pages showing the FAQ are told apart. */
  version(): number;
  /**
   * From now on looks at the files at most every few seconds, and when they changed reads
   * them again. New content must pass the file checks and check (what the shop adds, such
   * as links to its routes); if it does not, report says why and the last good content stays.
   */
  followChanges(options: {
    check(content: FaqContent): void;
    report(problem: string): void;
    reread?(message: string): void;
  }): void;
}

export interface FaqOptions {
  /** How often, at most, the files are looked at once changes are followed. */
  recheckMs?: number;
  /** The clock, in ms (tests set it). */
  now?: () => number;
}

export class FaqError extends Error {
  override name = "FaqError";
}

function where(path: readonly PropertyKey[], data: unknown): string {
  const parts: string[] = [];
  let node: unknown = data;
  for (const key of path) {
    node = node && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined;
    if (typeof key === "number") {
      const id = node && typeof node === "object" && "id" in node ? (node as { id: unknown }).id : undefined;
      parts[parts.length - 1] += typeof id === "string" ? `[${key}] "${id}"` : `[${key}]`;
    } else parts.push(String(key));
  }
  return parts.join(" > ");
}

function duplicates(values: string[]): string[] {
  return values.filter((v, i) => values.indexOf(v) !== i);
}

function parseFile(file: string): FaqTopic[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new FaqError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FaqError(`${file}: ${where(issue?.path ?? [], data)}: ${issue?.message}`);
  }
  const topics = parsed.data.topics;
  const problems = [
    ...duplicates(topics.map((t) => t.id)).map((id) => `topic id "${id}" is used twice`),
    ...duplicates(topics.map((t) => t.slug)).map((s) => `topic slug "${s}" is used twice`),
    ...topics.flatMap((t) => [
      ...duplicates(t.questions.map((q) => q.id)).map(
        (id) => `topics "${t.id}": question id "${id}" is used twice`,
      ),
      ...duplicates(t.questions.map((q) => q.slug)).map(
        (s) => `topics "${t.id}": question slug "${s}" is used twice`,
      ),
    ]),
  ];
  if (problems.length > 0) throw new FaqError(`${file}: ${problems[0]}`);
  return topics;
}

const shape = (topics: FaqTopic[]) =>
  topics
    .map(
      (t) =>
        `${t.id}: ${t.questions
          .map((q) => q.id)
          .sort()
          .join(",")}`,
    )
    .sort();

type Topics = Record<Locale, FaqTopic[]>;

function readTopics(dir: string): Topics {
  const byLocale = Object.fromEntries(
    locales.map((l) => [l, parseFile(resolve(dir, `${l}.json`))]),
  ) as Topics;
  const [first, ...others] = locales;
  for (const other of others) {
    const a = shape(byLocale[first]);
    const b = shape(byLocale[other]);
    const missing = a.filter((x) => !b.includes(x));
    const extra = b.filter((x) => !a.includes(x));
    if (missing.length || extra.length) {
      throw new FaqError(
        `${resolve(dir, `${other}.json`)}: topics and questions must match ${first}.json by id (differs at: ${[...missing, ...extra][0]})`,
      );
    }
  }
  return byLocale;
}

function contentOf(byLocale: Topics): FaqContent {
  return {
    topics: (locale) => byLocale[locale],
    topicBySlug: (locale, s) => byLocale[locale].find((t) => t.slug === s),
    topicById: (locale, id) => byLocale[locale].find((t) => t.id === id),
    linkedRoutes: () =>
      [
        ...new Set(
          locales.flatMap((l) =>
            byLocale[l].flatMap((t) =>
              t.questions.flatMap((q) =>
                q.answer.flatMap((p) => [...p.matchAll(linkPattern)].map((m) => m[2] ?? "")),
              ),
            ),
          ),
        ),
      ]
        .filter((target) => target.startsWith("route:"))
        .map((target) => target.slice(6)),
  };
}

/** Reads the files (throwing a FaqError that names the entry when one is wrong). */
export function loadFaq(dir: string, options: FaqOptions = {}): Faq {
  const recheckMs = options.recheckMs ?? 2_000;
  const now = options.now ?? Date.now;
  const files = locales.map((l) => resolve(dir, `${l}.json`));
  // Time and size of each file: cheap to look at, and any save changes them.
  const stamp = () =>
    files
      .map((file) => {
        const stat = statSync(file, { throwIfNoEntry: false });
        return stat ? `${stat.mtimeMs}:${stat.size}` : "missing";
      })
      .join(" ");

  // Stamped before reading, so a save during the read is noticed the next time.
  let seen = stamp();
  let content = contentOf(readTopics(dir));
  let version = 0;
  let following: Parameters<Faq["followChanges"]>[0] | undefined;
  let lookedAt = now();

  /** The content to use now: re-read first if the files changed since the last look. */
  function current(): FaqContent {
    if (!following || now() - lookedAt < recheckMs) return content;
    lookedAt = now();
    // Never throws: a request showing the FAQ must not fail because an editor is mid-save.
    try {
      const stamped = stamp();
      if (stamped === seen) return content;
      seen = stamped;
      const next = contentOf(readTopics(dir));
      following.check(next);
      content = next;
      version++;
      following.reread?.(`faq: content files read again (${dir})`);
    } catch (err) {
      following.report(
        `faq: content files not taken in, the last good version stays: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    return content;
  }

  return {
    topics: (locale) => current().topics(locale),
    topicBySlug: (locale, s) => current().topicBySlug(locale, s),
    topicById: (locale, id) => current().topicById(locale, id),
    linkedRoutes: () => current().linkedRoutes(),
    version: () => {
      current();
      return version;
    },
    followChanges(watch) {
      following = watch;
      lookedAt = now();
    },
  };
}

export interface AnswerPart {
  text: string;
  /** Present for a link: the resolved address. */
  href?: string;
}

/** A paragraph as text and links, for the template to write (each part escaped there). */
export function answerParts(paragraph: string, routeHref: (routeId: string) => string): AnswerPart[] {
  const parts: AnswerPart[] = [];
  let at = 0;
  for (const match of paragraph.matchAll(linkPattern)) {
    const index = match.index ?? 0;
    if (index > at) parts.push({ text: paragraph.slice(at, index) });
    const target = match[2] ?? "";
    parts.push({
      text: match[1] ?? "",
      href: target.startsWith("route:") ? routeHref(target.slice(6)) : target,
    });
    at = index + match[0].length;
  }
  if (at < paragraph.length) parts.push({ text: paragraph.slice(at) });
  return parts;
}

/** A paragraph without its link markup, for a meta description. */
export function plainText(paragraph: string): string {
  return paragraph.replace(linkPattern, "$1");
}
