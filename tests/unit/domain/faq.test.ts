import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../../server/config.ts";
import { answerParts, type FaqContent, FaqError, loadFaq, plainText } from "../../../server/domain/faq.ts";

const contentDir = resolve(projectRoot, "content/faq");

/** A copy of the FAQ files with one of them changed, as an editor might. */
interface FaqFile {
  topics: Array<{ slug: string; questions: Array<{ slug: string; question: string; answer: string[] }> }>;
}

/** An entry that the test knows is there. */
function at<T>(list: T[], index: number): T {
  const found = list[index];
  if (found === undefined) throw new Error(`no entry ${index}`);
  return found;
}

function edited(locale: "nl" | "de", change: (data: FaqFile) => void) {
  const dir = mkdtempSync(join(tmpdir(), "shop-faq-"));
  cpSync(contentDir, dir, { recursive: true });
  const file = join(dir, `${locale}.json`);
  const data = JSON.parse(readFileSync(file, "utf8"));
  change(data);
  writeFileSync(file, JSON.stringify(data));
  return dir;
}

describe("the FAQ content files", () => {
  it("load with the same topics and questions in Dutch and German", () => {
    const faq = loadFaq(contentDir);
    const ids = (l: "nl" | "de") => faq.topics(l).map((t) => [t.id, t.questions.map((q) => q.id)]);
    expect(ids("nl")).toEqual(ids("de"));
    expect(faq.topics("nl").map((t) => t.id)).toEqual([
      "ordering",
      "delivery",
      "photo-books",
      "payment",
      "account",
    ]);
    expect(faq.topicBySlug("de", "lieferung")?.id).toBe("delivery");
    expect(faq.topicById("nl", "delivery")?.slug).toBe("levering");
    expect(faq.linkedRoutes().sort()).toEqual(["contact", "deliveryTimes", "home", "privacy", "signIn"]);
  });

  it("refuse a German file whose questions differ from the Dutch one, naming the file", () => {
    const dir = edited("de", (data) => {
      at(data.topics, 0).questions.pop();
    });
    expect(() => loadFaq(dir)).toThrow(FaqError);
    expect(() => loadFaq(dir)).toThrow(
      /de\.json: topics and questions must match nl\.json by id \(differs at: ordering/,
    );
  });

  it("name the entry and field that is wrong", () => {
    const dir = edited("nl", (data) => {
      at(at(data.topics, 1).questions, 0).slug = "Levertijd!";
    });
    expect(() => loadFaq(dir)).toThrow(
      /nl\.json: topics\[1\] "delivery" > questions\[0\] "delivery-time" > slug: must be lower-case words/,
    );
  });

  it("refuse a link that goes nowhere known, and a slug used twice", () => {
    const badLink = edited("nl", (data) => {
      at(at(data.topics, 0).questions, 0).answer = ["Zie [hier](javascript:alert(1))."];
    });
    expect(() => loadFaq(badLink)).toThrow(/link target "javascript:alert\(1" must be route:<id>/);
    const twice = edited("de", (data) => {
      at(data.topics, 1).slug = at(data.topics, 0).slug;
    });
    expect(() => loadFaq(twice)).toThrow(/topic slug "bestellung" is used twice/);
  });
});

describe("the FAQ while the shop runs", () => {
  /** A copy of the shipped files that the test edits as an editor would, saved at a given moment. */
  function editable() {
    const dir = mkdtempSync(join(tmpdir(), "shop-faq-live-"));
    cpSync(contentDir, dir, { recursive: true });
    let saves = 0;
    const save = (locale: "nl" | "de", text: string) => {
      const file = join(dir, `${locale}.json`);
      writeFileSync(file, text);
      // A later modification time for every save, as a real one has (file systems tick coarsely).
      saves++;
      const when = new Date(Date.UTC(2030, 0, 1, 0, 0, saves));
      utimesSync(file, when, when);
    };
    const edit = (locale: "nl" | "de", change: (data: FaqFile) => void) => {
      const data = JSON.parse(readFileSync(join(dir, `${locale}.json`), "utf8"));
      change(data);
      save(locale, JSON.stringify(data));
    };
    return { dir, save, edit };
  }

  function following(dir: string, check: (content: FaqContent) => void = () => {}) {
    let clock = 0;
    const problems: string[] = [];
    const faq = loadFaq(dir, { recheckMs: 2_000, now: () => clock });
    faq.followChanges({ check, report: (problem) => problems.push(problem) });
    return {
      faq,
      problems,
      advance: (ms: number) => {
        clock += ms;
      },
    };
  }

  const firstQuestion = (faq: FaqContent) => faq.topics("nl")[0]?.questions[0]?.question;

  it("takes in what an editor saved, looking at the files at most every two seconds", () => {
    const files = editable();
    const { faq, problems, advance } = following(files.dir);
    expect(firstQuestion(faq)).toBe("Hoe bestel ik een fotoproduct?");
    expect(faq.version()).toBe(0);

    files.edit("nl", (data) => {
      at(at(data.topics, 0).questions, 0).question = "Hoe plaats ik een bestelling?";
    });
    advance(1_000);
    expect(firstQuestion(faq)).toBe("Hoe bestel ik een fotoproduct?");
    advance(1_000);
    expect(firstQuestion(faq)).toBe("Hoe plaats ik een bestelling?");
    expect(faq.version()).toBe(1);
    expect(problems).toEqual([]);
    // Unchanged files are not read again.
    advance(5_000);
    expect(faq.version()).toBe(1);
  });

  it("keeps the last good content and reports it when a saved file is broken, and takes the fixed file", () => {
    const files = editable();
    const { faq, problems, advance } = following(files.dir);
    const good = readFileSync(join(files.dir, "nl.json"), "utf8");

    files.save("nl", good.slice(0, 200));
    advance(2_000);
    expect(() => faq.topics("nl")).not.toThrow();
    expect(firstQuestion(faq)).toBe("Hoe bestel ik een fotoproduct?");
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^faq: content files not taken in, the last good version stays: .*nl\.json: /,
    );
    // Reported once, not on every look while the file stays as it is.
    advance(2_000);
    faq.topics("nl");
    expect(problems).toHaveLength(1);

    // Half-way through a change: the Dutch file has a question the German one lacks.
    files.save("nl", good);
    files.edit("nl", (data) => {
      at(data.topics, 0).questions.pop();
    });
    advance(2_000);
    expect(faq.topics("nl")[0]?.questions).toHaveLength(3);
    expect(problems[1]).toMatch(/de\.json: topics and questions must match nl\.json by id/);
    files.edit("de", (data) => {
      at(data.topics, 0).questions.pop();
    });
    advance(2_000);
    expect(faq.topics("nl")[0]?.questions).toHaveLength(2);
    expect(faq.topics("de")[0]?.questions).toHaveLength(2);
    expect(faq.version()).toBe(1);
    expect(problems).toHaveLength(2);
  });

  it("keeps the last good content when the shop's own check refuses the new one", () => {
    const files = editable();
    const { faq, problems, advance } = following(files.dir, (content) => {
      if (content.linkedRoutes().includes("nowhere")) throw new Error("an answer links to route:nowhere");
    });
    files.edit("nl", (data) => {
      at(at(data.topics, 0).questions, 0).answer = ["Zie [hier](route:nowhere)."];
    });
    advance(2_000);
    expect(faq.linkedRoutes()).not.toContain("nowhere");
    expect(problems).toEqual([
      "faq: content files not taken in, the last good version stays: an answer links to route:nowhere",
    ]);
  });

  it("when a file is deleted, keeps the last good content", () => {
    const files = editable();
    const { faq, problems, advance } = following(files.dir);
    rmSync(join(files.dir, "de.json"));
    advance(2_000);
    expect(faq.topicBySlug("de", "lieferung")?.id).toBe("delivery");
    expect(problems[0]).toMatch(/de\.json: ENOENT/);
  });
});

describe("an answer's text", () => {
  it("splits into text and links, route links resolved to the locale's address", () => {
    const href = (id: string) => ({ contact: "/klantenservice/contact" })[id] ?? "?";
    expect(
      answerParts("Vul [het formulier](route:contact) in, of bel [ons](tel:+31851234567).", href),
    ).toEqual([
      { text: "Vul " },
      { text: "het formulier", href: "/klantenservice/contact" },
      { text: " in, of bel " },
      { text: "ons", href: "tel:+31851234567" },
      { text: "." },
    ]);
    expect(answerParts("Geen links.", href)).toEqual([{ text: "Geen links." }]);
  });

  it("reads as plain text for a page description", () => {
    expect(plainText("Kijk op de pagina [levertijden](route:deliveryTimes).")).toBe(
      "Kijk op de pagina levertijden.",
    );
  });
});
