// The decision records' index is where the next engineer starts: it must list every record
// once, under its own title, and say truthfully whether the record still holds as written.
// A record's status is read off the record itself ("Amended by [0101]"), so the index and
// the records cannot drift apart; and a record that amends or supersedes another must be
// named in the other too ("say so in both").
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const directory = join(import.meta.dirname, "../../../docs/adr");
const recordFiles = readdirSync(directory).filter((name) => /^\d{4}-.*\.md$/.test(name));
const text = (file: string) => readFileSync(join(directory, file), "utf8");
const flat = (file: string) => text(file).replace(/\s+/g, " ");
const numberOf = (file: string) => file.slice(0, 4);

/** Numbers of the records linked right after a phrase, as in "by [0076](…) and [0077](…)". */
function linkedAfter(source: string, phrase: RegExp): string[] {
  const numbers = new Set<string>();
  const pattern = new RegExp(`${phrase.source}((?:,? (?:and )?\\[\\d{4}\\]\\([^)]*\\))+)`, "gi");
  for (const match of source.matchAll(pattern)) {
    for (const link of (match[match.length - 1] ?? "").matchAll(/\[(\d{4})\]/g)) numbers.add(link[1] ?? "");
  }
  return [...numbers].sort();
}

/** Records a newer one says it supersedes, amends or replaces: every link in that sentence. */
function namedAsReplaced(source: string): string[] {
  const numbers = new Set<string>();
  for (const sentence of source.matchAll(/\b(?:Supersedes|Amends|Replaces)\b(.*?)(?:[.;] |$)/gi)) {
    for (const link of (sentence[1] ?? "").matchAll(/\[(\d{4})\]\(/g)) numbers.add(link[1] ?? "");
  }
  return [...numbers].sort();
}

/** What the record says of itself: which later records changed it, and whether wholly. */
function statusOf(file: string): string {
  const source = flat(file);
  const whole = linkedAfter(source, /(?:^|- |Status: )Superseded by/);
  if (whole.length > 0) return `superseded by ${whole.join(", ")}`;
  const amended = linkedAfter(source, /(?:amended|superseded(?: in part)?|replaced|carried on) by/);
  return amended.length > 0 ? `amended by ${amended.join(", ")}` : "in force";
}

interface IndexEntry {
  number: string;
  title: string;
  file: string;
  status: string;
  topic: string;
}

function readIndex(): IndexEntry[] {
  const entries: IndexEntry[] = [];
  let topic = "";
  for (const line of text("README.md").split("\n")) {
    const heading = /^## (.+)$/.exec(line);
    if (heading?.[1]) topic = heading[1];
    const [, number, title, file, linkedStatus] = /^- \[(\d{4})\. (.+?)\]\(([^)]+)\): (.+)$/.exec(line) ?? [];
    if (number && title && file && linkedStatus) {
      const status = linkedStatus.replace(/\[(\d{4})\]\([^)]*\)/g, "$1");
      entries.push({ number, title, file, status, topic });
    }
  }
  return entries;
}

describe("the decision records' index", () => {
  const entries = readIndex();

  it("lists every record exactly once, under a topic, by its own title", () => {
    expect(entries.map((entry) => entry.file).sort()).toEqual([...recordFiles].sort());
    for (const entry of entries) {
      expect(entry.topic, entry.file).not.toBe("");
      expect(numberOf(entry.file)).toBe(entry.number);
      expect(`# ${entry.number}. ${entry.title}`).toBe(text(entry.file).split("\n")[0]);
    }
  });

  it("keeps each topic in the order the records were made", () => {
    const topics = new Map<string, string[]>();
    for (const entry of entries) topics.set(entry.topic, [...(topics.get(entry.topic) ?? []), entry.number]);
    for (const [topic, numbers] of topics) expect(numbers, topic).toEqual([...numbers].sort());
  });

  it("gives each record the status the record itself states", () => {
    for (const entry of entries) expect(entry.status, entry.file).toBe(statusOf(entry.file));
  });

  it("names every amended or superseded record's successor in the old record too", () => {
    const fileOf = new Map(recordFiles.map((file) => [numberOf(file), file]));
    for (const newer of recordFiles) {
      for (const number of namedAsReplaced(flat(newer))) {
        const oldFile = fileOf.get(number);
        expect(oldFile, `${newer} names a record ${number} that does not exist`).toBeDefined();
        if (oldFile === undefined || number >= numberOf(newer)) continue;
        expect(statusOf(oldFile), `${oldFile} should say it was changed by ${newer}`).toContain(
          numberOf(newer),
        );
      }
    }
  });

  it("reads a status from the way records word it", () => {
    // The test's own reading, on the phrasings the records use, so a wording it misses fails here.
    const source = "Status: superseded in part by [0076](a.md) and [0077](b.md): orders are paid.";
    expect(linkedAfter(source, /superseded in part by/)).toEqual(["0076", "0077"]);
    expect(linkedAfter("- Superseded by [0101](c.md): gone.", /(?:^|- )Superseded by/)).toEqual(["0101"]);
    expect(linkedAfter("no record is named here", /amended by/)).toEqual([]);
    const newer = "Supersedes the marks of [0053](a.md) and the gzip of [0054](b.md); amends [0011](c.md).";
    expect(namedAsReplaced(newer)).toEqual(["0011", "0053", "0054"]);
    expect(namedAsReplaced("Replaces: nothing; adds to [0071](d.md).")).toEqual([]);
  });
});
