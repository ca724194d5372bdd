import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { startPhotoBook } from "../support/photos.ts";
import { textOf } from "../support/shopper.ts";

/**
 * The shopper's journey on SQLite in a file, as `npm start` runs the shop. A file database
 * has a second, read-only connection for the reads on every page (the header's cart count,
 * the cart's revision that decides whether a kept cart page is still right); everything is
 * read back through the pages, so a read there that missed a write just committed on the
 * other connection shows as a wrong count, or an old cart.
 */
let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({ sqliteFile: true });
});
afterAll(() => shop.close());

const product = "/assortiment/fotoboeken/exclusief-fotoboek";
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const prints = { product: "classic-prints", orientation: "landscape", size: "15x10" };
const anna = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234ab",
  city: "Utrecht",
  country: "NL",
  email: "anna-file@example.nl",
  phone: "06 12345678",
};

const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html;
const headerCount = (html: string) => /class="cart-link__count"[^>]*data-count="(\d+)"/.exec(html)?.[1];
/** The names of the cart's lines, in order (the tips below them name products too). */
const lineNames = (html: string) =>
  [...html.matchAll(/<h3 class="cart-line__name"><a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";

describe("a shop on a SQLite file", () => {
  it("keeps its data in the file, with the write-ahead log beside it", async () => {
    const file = join(shop.config.dataDir, "shop.db");
    expect(existsSync(file)).toBe(true);
    expect((await shop.app.inject({ url: "/healthz" })).statusCode).toBe(200);
    // WAL mode: the read connection sees what the writing one committed without waiting for it.
    expect(existsSync(`${file}-wal`)).toBe(true);
  });

  it("a shopper who fills the cart sees every change at once: header count, cart page, and again after each change", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(product);
    expect((await browser.form("/winkelwagen/inhoud", { ...book, quantity: "2" })).statusCode).toBe(303);

    const cart = await browser.get("/winkelwagen/inhoud");
    expect(cart.statusCode).toBe(200);
    expect(headerCount(cart.body)).toBe("2");
    expect(textOf(main(cart.body))).toContain("Exclusief fotoboek");
    expect(headerCount((await browser.get(product)).body)).toBe("2");
    // The plain cart page again: the same revision, the same page.
    expect(headerCount((await browser.get("/winkelwagen/inhoud")).body)).toBe("2");

    // Each change raises the revision: the page kept for the old one must not come back.
    const both = ["Exclusief fotoboek", "Klassieke fotoafdrukken"];
    const changes: Array<[Record<string, string>, string, string[]]> = [
      [{ ...prints, quantity: "3", from: "cart" }, "5", both],
      [{ ...book, quantity: "1", intent: "update" }, "4", both],
      [{ ...prints, intent: "remove" }, "1", ["Exclusief fotoboek"]],
    ];
    for (const [change, count, lines] of changes) {
      expect((await browser.form("/winkelwagen/inhoud", change)).statusCode).toBe(303);
      const after = await browser.get("/winkelwagen/inhoud");
      expect(headerCount(after.body), JSON.stringify(change)).toBe(count);
      expect(lineNames(after.body)).toEqual(lines);
      expect(headerCount((await browser.get("/")).body)).toBe(count);
    }
  });

  it("a shopper who saves the address sees it on the overview, places the order and sees the thank-you page with an empty cart", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(product);
    expect((await browser.form("/winkelwagen/inhoud", { ...book, quantity: "1" })).statusCode).toBe(303);
    await browser.get("/winkelwagen/adres");
    const saved = await browser.form("/winkelwagen/adres", anna);
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe("/winkelwagen/overzicht");

    const overview = await browser.follow(saved);
    expect(overview.statusCode).toBe(200);
    const text = textOf(main(overview.body));
    expect(text).toContain("Anna de Vries Dorpsstraat 12 1234 AB Utrecht Nederland");
    expect(text).toContain("E-mail: anna-file@example.nl");
    expect(headerCount(overview.body)).toBe("1");

    const placed = await browser.form("/winkelwagen/overzicht", {
      orderKey: field(overview.body, "orderKey"),
      fingerprint: field(overview.body, "fingerprint"),
    });
    expect(placed.statusCode).toBe(303);
    // The test provider's payment page, then back to the order page once paid.
    expect((await browser.follow(placed)).statusCode).toBe(200);
    const paid = await browser.form(placed.headers.location ?? "", { outcome: "paid" });
    expect(paid.statusCode).toBe(303);
    const number = new URL(paid.headers.location ?? "", "http://shop.test").pathname.split("/").pop() ?? "";
    const thanks = await browser.follow(paid);
    expect(thanks.statusCode).toBe(200);
    expect(textOf(main(thanks.body))).toContain(`Je bestelnummer is ${number}.`);
    expect(textOf(main(thanks.body))).toContain("Betaald");
    // The order emptied the cart in the same transaction: the read connection sees that too.
    expect(headerCount(thanks.body)).toBe("0");
    const cart = await browser.get("/winkelwagen/inhoud");
    expect(textOf(main(cart.body))).toContain("Je winkelwagen is leeg");
    expect(headerCount(cart.body)).toBe("0");
  });

  it("a shopper who uploads a photo sees it on the project and in the uploads tab", async () => {
    const browser = new BrowserSession(shop.app);
    const started = await startPhotoBook(browser);
    expect(started.statusCode).toBe(303);
    const project = await browser.follow(started);
    expect(project.statusCode).toBe(200);
    expect(project.body).toContain('alt="Pagina 1: strand.jpg"');
    const tab = await browser.get("/abonnement");
    expect(textOf(tab.body)).toContain("strand.jpg");

    // And into the cart with its book: the header counts it at once.
    const projectId = started.headers.location?.split("/").pop() ?? "";
    expect(
      (await browser.form("/winkelwagen/inhoud", { project: projectId, quantity: "1" })).statusCode,
    ).toBe(303);
    const cart = await browser.get("/winkelwagen/inhoud");
    expect(headerCount(cart.body)).toBe("1");
    expect(textOf(main(cart.body))).toContain("Exclusief fotoboek");
  });
});
