import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journeyPages } from "../../scripts/template-check/journey.ts";
import { publicPages } from "../../scripts/template-check/pages.ts";
import { isHtml, type RenderedPage, render } from "../../scripts/template-check/render.ts";
import { type CheckShop, openShop } from "../../scripts/template-check/shop.ts";
import { type Locale, locales } from "../../server/i18n/locales.ts";
import type { Messages } from "../../server/i18n/translate.ts";

/**
 * Every page of the route table, in both languages, as the template check renders them:
 * the pages anyone can open (parameters filled from the catalogue, the FAQ and the
 * subscription's topics, the 404 page) and a shopper's own (cart, checkout, order,
 * subscription, account), reached by the check's journey.
 */
let shop: CheckShop;
let pages: RenderedPage[];
beforeAll(async () => {
  shop = await openShop();
  pages = [];
  for (const request of publicPages(shop, () => true).pages) {
    const { page, response } = await render(shop, request);
    if (isHtml(response) && (response.statusCode < 300 || response.statusCode >= 400)) pages.push(page);
  }
  pages.push(...(await journeyPages(shop, () => true)).pages);
}, 120_000);
afterAll(() => shop.close());

/**
 * Routes the template check's journey does not open: the account's export (a JSON
 * download), saving an order's details (a post whose GET leads back to the order) and the
 * page of an order-claim link (it needs the claim mail's token; its description is
 * pageDescriptions.orderClaimConfirm like the others'), and the page of a withdrawal link (it
 * needs the mail of a paid subscription's withdrawal; it is the template of the cancellation
 * link's page, contractCancelConfirm, which the journey opens).
 */
const notRendered = new Set(["accountExport", "saveDetails", "orderClaimConfirm", "contractWithdrawConfirm"]);

const descriptionsOf = (html: string) =>
  [...html.matchAll(/<meta name="description" content="([^"]*)">/g)].map((m) => m[1] ?? "");

const textsOf = (node: Messages | string): string[] =>
  typeof node === "string" ? [node] : Object.values(node).flatMap((child) => textsOf(child as Messages));

describe("every page's meta description", () => {
  it("covers every route of the table that renders a page, in both languages", async () => {
    const { routes } = shop.app.i18n;
    const rendered = new Set(pages.map((p) => `${p.locale} ${p.routeId}`));
    for (const id of routes.ids) {
      if (!shop.app.hasRoute({ method: "GET", url: routes.pattern(id as never, "nl") })) continue;
      if (routes.pattern(id as never, "nl").startsWith("/api/") || notRendered.has(id)) continue;
      if (!rendered.has(`nl ${id}`) && !routes.pattern(id as never, "nl").includes(":")) {
        // An address that only leads elsewhere when opened (a form's, after its post) renders nothing.
        const opened = await shop.app.inject({ url: routes.pattern(id as never, "nl") });
        if (opened.statusCode >= 300 && opened.statusCode < 400) continue;
      }
      for (const l of locales) expect(rendered, `${l} ${id}`).toContain(`${l} ${id}`);
    }
  });

  it("is there exactly once, with text", () => {
    const wrong = pages
      .filter((p) => {
        const found = descriptionsOf(p.html);
        return found.length !== 1 || (found[0] ?? "").trim() === "";
      })
      .map((p) => `${p.locale} ${p.url}: ${descriptionsOf(p.html).length} descriptions`);
    expect(wrong).toEqual([]);
  });

  it("is in the page's language", () => {
    const messages = shop.app.i18n.messages;
    const texts = Object.fromEntries(locales.map((l) => [l, new Set(textsOf(messages[l]))])) as Record<
      Locale,
      Set<string>
    >;
    const byRoute = new Map<string, Record<Locale, Set<string>>>();
    for (const page of pages) {
      expect(page.html, page.url).toContain(`<html lang="${page.locale}"`);
      const [description = ""] = descriptionsOf(page.html);
      const other = locales.find((l) => l !== page.locale) as Locale;
      // A text of the other language's file that its own lacks: the page speaks the wrong language.
      expect(texts[other].has(description) && !texts[page.locale].has(description), page.url).toBe(false);
      const seen = byRoute.get(page.routeId) ?? { nl: new Set(), de: new Set() };
      seen[page.locale].add(description);
      byRoute.set(page.routeId, seen);
    }
    // No route says the same thing in both languages.
    for (const [id, seen] of byRoute) {
      expect(
        [...seen.nl].filter((d) => seen.de.has(d)),
        id,
      ).toEqual([]);
    }
  });
});
