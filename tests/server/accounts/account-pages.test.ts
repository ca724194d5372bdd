import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderIdOf } from "../../../server/domain/order-number.ts";
import { orderLifecycleRepository } from "../../../server/store/order-lifecycle-repository.ts";
import { accountPaths, annasAddress, mainText, placeOrder, signedUp } from "../../support/accounts.ts";
import { type TestShop, testShop } from "../../support/app.ts";
import type { BrowserSession } from "../../support/browser-session.ts";
import { freePort } from "../../support/shop-process.ts";

let shop: TestShop;
let origin = "";

beforeAll(async () => {
  // The test provider calls the webhook over HTTP: the shop listens.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  shop = await testShop({ env: { SIGNUP_RATE_LIMIT: "1000", PUBLIC_URL: origin }, sleep: async () => {} });
  await shop.app.listen({ port, host: "127.0.0.1" });
});
afterAll(() => shop.close());

const db = () => shop.database.db;
const nl = accountPaths.nl;
const de = accountPaths.de;
const pathOf = (location: unknown) => new URL(String(location), origin).pathname;
const address = annasAddress;

/** An order placed, its test payment decided: answers the order's page. */
async function order(browser: BrowserSession, outcome: "paid" | "open" | "failed") {
  const placed = await placeOrder(browser, address);
  const testPage = pathOf(placed.headers.location);
  await browser.get(testPage);
  const back = await browser.form(testPage, { outcome });
  return pathOf(back.headers.location);
}

describe("the account's pages", () => {
  it("ask a browser that is not signed in to sign in, and come back afterwards", async () => {
    const res = await shop.app.inject({ url: nl.orders });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe("/inloggen?terug=%2Faccount%2Fbestellingen");
    const german = await shop.app.inject({ url: de.addresses });
    expect(german.headers.location).toBe("/anmelden?terug=%2Fkonto%2Fadressen");
  });

  it("my orders: each with its status and when it goes out; an unpaid one can be paid from its page", async () => {
    const browser = await signedUp(shop.app, db(), { email: "anna@example.nl" });
    const paidPage = await order(browser, "paid");
    const openPage = await order(browser, "open");
    const list = await browser.get(nl.orders);
    expect(list.statusCode).toBe(200);
    const text = mainText(list);
    const paidNumber = paidPage.split("/").pop() as string;
    const openNumber = openPage.split("/").pop() as string;
    expect(text).toContain(`${paidNumber}`);
    expect(text).toMatch(/Betaald .*verwacht/);
    expect(text).toContain("Wacht op betaling · Betaal nu");
    expect(list.body).toContain(`aria-label="Betaal bestelling ${openNumber}"`);
    // The detail: the order's own page, for the account on another device too.
    const detail = await browser.get(paidPage);
    expect(mainText(detail)).toMatch(/Verwachte verzending: \w+dag \d+/);
    expect(mainText(detail)).toMatch(/Verwachte bezorging: \w+dag \d+/);
    // Shipped by the staff on a Friday: the day it went, and PostNL's next working day.
    const lifecycle = orderLifecycleRepository(db());
    const orderId = orderIdOf(paidNumber) as number;
    await lifecycle.applyOrderEvent(
      orderId,
      { type: "production_started" },
      new Date("2026-12-10T09:00:00Z"),
    );
    await lifecycle.applyOrderEvent(orderId, { type: "shipped" }, new Date("2026-12-11T15:00:00Z"));
    const shipped = mainText(await browser.get(paidPage));
    expect(shipped).toContain("Verzonden op vrijdag 11 december 2026.");
    expect(shipped).toContain("Verwachte bezorging: maandag 14 december 2026.");
    const unpaid = await browser.get(openPage);
    expect(mainText(unpaid)).toContain("Betaal opnieuw");
  });

  it("my addresses: added, changed and removed without JavaScript; the checkout offers them filled in", async () => {
    const browser = await signedUp(shop.app, db(), { email: "bram@example.nl", name: "Bram" });
    await browser.get(nl.addresses);
    const refused = await browser.form(nl.addresses, { ...address, postcode: "12" });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/value="Dorpsstraat 12"/);
    const added = await browser.form(nl.addresses, {
      ...address,
      name: "Bram Bakker",
      email: "bram@example.nl",
    });
    expect(added.statusCode).toBe(303);
    const list = await browser.follow(added);
    expect(mainText(list)).toContain("Het adres is opgeslagen.");
    expect(mainText(list)).toContain("Bram Bakker Dorpsstraat 12 1234 AB Utrecht Nederland");
    const edit = /href="(\/account\/adressen\/[\w-]{22})"/.exec(list.body)?.[1] as string;
    await browser.get(edit);
    const changed = await browser.form(edit, {
      ...address,
      name: "Bram Bakker",
      street: "Kerkplein 1",
      email: "bram@example.nl",
    });
    expect(changed.statusCode).toBe(303);

    // The checkout's address step, with a book in the cart: the address filled in, and a choice.
    await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
    await browser.form("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    const step = await browser.get("/winkelwagen/adres");
    expect(step.body).toMatch(/id="address-street"[^>]*value="Kerkplein 1"/);
    expect(mainText(step)).toContain("Je adressen");
    expect(step.body).toContain("Gebruik het adres van Bram Bakker, Kerkplein 1");

    // A new address given at the checkout joins the book.
    await browser.form("/winkelwagen/adres", { ...address, name: "Oma Bakker", street: "Laan 9" });
    expect(mainText(await browser.get(nl.addresses))).toContain("Oma Bakker Laan 9");

    const remove = new RegExp(`action="(${edit}/verwijderen)"`).exec(
      (await browser.get(nl.addresses)).body,
    )?.[1] as string;
    const removed = await browser.form(remove, {});
    expect(mainText(await browser.follow(removed))).toContain("Het adres is verwijderd.");
    expect(mainText(await browser.get(nl.addresses))).not.toContain("Kerkplein 1");
    // Someone else's address is not there for this account.
    expect((await browser.get("/account/adressen/AAAAAAAAAAAAAAAAAAAAAA")).statusCode).toBe(404);
  });

  it("the checkout's address step, signed in without any address yet: the account's name and e-mail filled in", async () => {
    const browser = await signedUp(shop.app, db(), { email: "dirk@example.nl", name: "Dirk de Boer" });
    await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
    await browser.form("/winkelwagen/inhoud", {
      product: "exclusive-photobook",
      orientation: "portrait",
      size: "21x30",
      quantity: "1",
    });
    const step = await browser.get("/winkelwagen/adres");
    expect(step.body).toMatch(/id="address-name"[^>]*value="Dirk de Boer"/);
    expect(step.body).toMatch(/id="address-email"[^>]*value="dirk@example.nl"/);
    expect(step.body).toMatch(/id="address-street"(?![^>]*value="[^"])/);
  });

  it("my subscription: plan, status and paid period, and cancelling it", async () => {
    const browser = await signedUp(shop.app, db(), { email: "carla@example.nl" });
    expect(mainText(await browser.get(nl.subscription))).toContain("Je hebt geen fotoabonnement.");
    // Signed in, the subscription asks for the plan alone and goes straight to paying.
    await browser.get("/abonnement");
    const started = await browser.form("/abonnement/aanmelden", { plan: "plus", country: "NL" });
    expect(pathOf(started.headers.location)).toMatch(/^\/testbetaling\//);
    const testPage = pathOf(started.headers.location);
    await browser.get(testPage);
    await browser.form(testPage, { outcome: "paid" });

    const page = await browser.get(nl.subscription);
    const text = mainText(page);
    expect(text).toContain("Plus");
    expect(text).toContain("Actief");
    expect(text).toMatch(/Betaald tot en met \w+dag \d+/);
    const cancelled = await browser.form(nl.subscription, {});
    const after = mainText(await browser.follow(cancelled));
    expect(after).toContain("Je abonnement is opgezegd.");
    expect(after).toContain("Opgezegd");
    expect(after).not.toContain("Abonnement opzeggen");
  });

  it("my photos, and the overview's sections and sign-out buttons, in German", async () => {
    const browser = await signedUp(shop.app, db(), { email: "dirk@example.de", name: "Dirk" }, "de");
    const overview = await browser.get(de.account);
    const text = mainText(overview);
    expect(text).toContain("Hallo Dirk");
    for (const section of [
      "Meine Bestellungen",
      "Meine Fotos und Projekte",
      "Mein Abo",
      "Meine Adressen",
      "Abmelden",
      "Überall abmelden",
    ]) {
      expect(text).toContain(section);
    }
    const photos = await browser.get(de.photos);
    expect(mainText(photos)).toContain("Sie haben noch keine Fotobuchprojekte.");
  });
});
