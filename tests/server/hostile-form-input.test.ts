import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { annasAddress, placeOrder, signedUp } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { type PageForm, pageLinks, postForms } from "../support/page-forms.ts";

/**
 * Every form the shop offers, found by following its links as a shopper with a cart and a
 * signed-in customer with an order, posted with hostile values: each field in turn, a field
 * sent twice, a field left out, fields named like an object's properties. Bad input gets an answer, never a server error. The rate
 * limits are lifted so that every post reaches the route that reads it.
 */

const unlimited = "100000";
const logged: string[] = [];
let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({
    env: Object.fromEntries(
      [
        "CONTACT_RATE_LIMIT",
        "SIGNUP_RATE_LIMIT",
        "CART_RATE_LIMIT",
        "CART_CHANGE_RATE_LIMIT",
        "ADDRESS_RATE_LIMIT",
        "PROJECT_RATE_LIMIT",
        "UPLOAD_RATE_LIMIT",
      ].map((name) => [name, unlimited]),
    ),
    logger: { level: "error", stream: { write: (line: string) => logged.push(line) } },
  });
});
afterAll(() => shop.close());

const hostile = [
  "",
  "%FF",
  "\u0000",
  "a".repeat(20_000),
  "😀".repeat(40),
  `<b>"'&`,
  "-1",
  "1e309",
  "__proto__",
  "\u202e\u200b",
];

// Forms and links that end what the crawl stands on: signing out, deleting the account.
const ending = /uitloggen|abmelden|verwijderen|loeschen/;
const seeds = [
  "/",
  "/de",
  "/assortiment/fotoboeken/exclusief-fotoboek",
  "/winkelwagen/inhoud",
  "/winkelwagen/overzicht",
  "/abonnement",
  "/account",
  "/konto",
];

/** The post forms of every page reachable from the seeds, one of each (action and fields). */
async function formsReachable(browser: BrowserSession): Promise<PageForm[]> {
  const seen = new Set<string>();
  const queue = [...seeds];
  const forms = new Map<string, PageForm>();
  while (queue.length > 0 && seen.size < 200) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await browser.get(url);
    expect(res.statusCode, url).toBeLessThan(500);
    if (!String(res.headers["content-type"]).startsWith("text/html")) continue;
    for (const form of postForms(res.body, url)) {
      const names = form.fields.map(([name]) => name).join(",");
      if (!ending.test(form.action)) forms.set(`${form.action} ${names}`, form);
    }
    for (const link of pageLinks(res.body))
      if (!ending.test(link) && !link.startsWith("/static/") && !seen.has(link)) queue.push(link);
  }
  return [...forms.values()];
}

const own = (form: PageForm) => form.fields.filter(([name]) => name !== "_csrf");

async function postEachWay(browser: BrowserSession, form: PageForm) {
  // First, as a route's own rate limit (60 a minute for the photo editor) may cut the rest short:
  // fields named like an object's own properties.
  const variants: PageForm["fields"][] = [
    [...own(form), ["constructor", "1"], ["__proto__", "1"], ["toString", "1"]],
  ];
  const fields = own(form);
  fields.forEach((_, i) => {
    for (const value of hostile) variants.push(fields.map(([name, v], j) => [name, i === j ? value : v]));
    variants.push(fields.filter((_, j) => j !== i));
  });
  variants.push([...fields, ...fields.map(([name]): [string, string] => [name, "2"])]);
  const failures: string[] = [];
  await browser.get(form.page);
  for (const variant of variants) {
    const body = new URLSearchParams([["_csrf", browser.token], ...variant]).toString();
    for (const ajax of [false, true]) {
      const res = await browser.post(
        form.action,
        { payload: body, contentType: "application/x-www-form-urlencoded" },
        ajax ? { "x-requested-with": "XMLHttpRequest" } : {},
      );
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${form.action} ${body.slice(0, 160)}`);
    }
  }
  return { posts: variants.length * 2, failures };
}

describe("every form, posted with hostile values", () => {
  it("answers without a server error for a shopper with a cart and for a signed-in customer", async () => {
    const shopper = new BrowserSession(shop.app);
    await placeOrder(shopper, annasAddress);
    await shopper.form("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    await shopper.form("/winkelwagen/adres", annasAddress);
    const customer = await signedUp(shop.app, shop.database.db, { email: "hostile@example.test" });
    await placeOrder(customer, annasAddress);

    let posts = 0;
    const failures: string[] = [];
    const actions = new Set<string>();
    for (const browser of [shopper, customer]) {
      for (const form of await formsReachable(browser)) {
        actions.add(form.action.split("?")[0] as string);
        const result = await postEachWay(browser, form);
        posts += result.posts;
        failures.push(...result.failures);
      }
    }
    expect(failures).toEqual([]);
    expect(logged).toEqual([]);
    // The crawl reached the shop's forms: the cart, checkout, the account's, the contact form.
    for (const action of [
      "/winkelwagen/inhoud",
      "/winkelwagen/adres",
      "/winkelwagen/overzicht",
      "/account/adressen",
      "/klantenservice/contact",
    ])
      expect(
        [...actions].some((a) => a.startsWith(action)),
        action,
      ).toBe(true);
    expect(actions.size).toBeGreaterThan(30);
    expect(posts).toBeGreaterThan(3000);
  }, 120_000);
});
