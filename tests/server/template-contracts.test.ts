import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";

/**
 * A copy of views/ in which an editor included the tooltip on the customer service page
 * with "tekst" for "text"; `line` is the include's line.
 */
let dir: string;
let views: string;
let line: number;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "template-contracts-"));
  views = join(dir, "views");
  cpSync(resolve(import.meta.dirname, "../../views"), views, { recursive: true });
  const file = join(views, "pages", "customer-service.eta");
  const lines = readFileSync(file, "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes('class="lead"')) + 1;
  lines.splice(
    at,
    0,
    '<div><%~ include("/partials/tooltip", it.with({ tooltip: { label: "Uitleg", tekst: "Wij helpen je." } })) %></div>',
  );
  writeFileSync(file, lines.join("\n"));
  line = at + 1;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a partial given a misspelt parameter, in development", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop({ env: { NODE_ENV: "development" }, views });
  });
  afterAll(() => shop.close());

  it("renders an error box in the component's place naming template file, partial and parameter", async () => {
    const res = await shop.app.inject({ url: "/klantenservice" });
    expect(res.statusCode).toBe(200);
    const boxes = [...res.body.matchAll(/<div class="template-error"[^>]*>/g)].map((m) => m[0]);
    const box = boxes.find((b) => b.includes('data-parameter="tooltip.tekst"'));
    expect(box, boxes.join("\n")).toBeDefined();
    expect(box).toMatch(new RegExp(`data-template="[^"]*views/pages/customer-service\\.eta:${line}"`));
    expect(box).toContain('data-partial="tooltip"');
    expect(box).toContain('data-template-error="unknown parameter &quot;tooltip.tekst&quot;"');
    expect(res.body).not.toContain('data-island="tooltip"');
  });

  it("never shows the word undefined", async () => {
    const res = await shop.app.inject({ url: "/klantenservice" });
    expect(res.body).not.toContain("undefined");
  });
});

describe("a partial given a misspelt parameter, in production", () => {
  let shop: TestShop;
  const logged: string[] = [];
  beforeAll(async () => {
    const stream = { write: (line: string) => logged.push(line) };
    shop = await testShop({ logger: { level: "error", stream }, views });
  });
  afterAll(() => shop.close());

  it("answers the page without the component, and logs one error line naming template, partial and parameter", async () => {
    for (const url of ["/klantenservice", "/klantenservice"]) {
      const res = await shop.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain("template-error");
      expect(res.body).not.toContain('data-island="tooltip"');
      expect(res.body).toContain("<h1>");
    }
    const lines = logged.filter((l) => l.includes("tooltip.tekst")).map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      partial: "tooltip",
      parameter: "tooltip.tekst",
    });
    expect(lines[0].template).toMatch(new RegExp(`views/pages/customer-service\\.eta:${line}$`));
  });
});
