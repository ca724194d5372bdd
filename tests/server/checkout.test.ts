import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartRepository } from "../../server/store/cart-repository.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { orderPageLink } from "../support/orders.ts";
import { freePort } from "../support/shop-process.ts";
import { type Shopper, shopper, textOf } from "../support/shopper.ts";

/**
 * A shop that listens, at the address it gives the payment provider: the built-in test
 * provider calls the shop's webhook over HTTP, as a real provider does, when the tester
 * decides a payment on its test-payment page.
 */
async function listeningShop(options: Parameters<typeof testShop>[0] = {}): Promise<TestShop> {
  const port = await freePort();
  const own = await testShop({
    ...options,
    env: { PUBLIC_URL: `http://127.0.0.1:${port}`, PAYMENT_PROVIDER: "test", ...options.env },
  });
  await own.app.listen({ port, host: "127.0.0.1" });
  return own;
}

let shop: TestShop;
beforeAll(async () => {
  shop = await listeningShop();
});
afterAll(() => shop.close());

const nl = {
  contents: "/winkelwagen/inhoud",
  address: "/winkelwagen/adres",
  overview: "/winkelwagen/overzicht",
  product: "/assortiment/fotoboeken/exclusief-fotoboek",
};
const de = {
  contents: "/einkaufswagen/inhalt",
  address: "/einkaufswagen/adresse",
  overview: "/einkaufswagen/uebersicht",
  product: "/sortiment/fotobuecher/exklusives-fotobuch",
};
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const prints = { product: "classic-prints", orientation: "landscape", size: "15x10" };
const anna = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234ab",
  city: "Utrecht",
  country: "NL",
  email: "anna@example.nl",
  phone: "06 12345678",
};

const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html;
const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
/** A Location as the browser follows it: the provider's checkout and return URLs are absolute. */
/** A redirect's path with its query: the order page's holds the order's own secret. */
const pathOf = (location: unknown) => {
  const url = new URL(String(location), "http://shop.test");
  return `${url.pathname}${url.search}`;
};
const testPayment = { nl: /^\/testbetaling\/tp_[\w-]+$/, de: /^\/testzahlung\/tp_[\w-]+$/ };

async function withCart(paths = nl, lines = [{ ...book, quantity: "2" }]): Promise<Shopper> {
  const s = await shopper(shop.app, paths.product);
  for (const line of lines) expect((await s.post(paths.contents, line)).statusCode).toBe(303);
  return s;
}

async function readyToOrder(paths = nl, address: Record<string, string> = anna): Promise<Shopper> {
  const s = await withCart(paths);
  expect((await s.post(paths.address, address)).statusCode).toBe(303);
  return s;
}

/** Opens the overview and posts its place-order form as it is. */
async function placeOrder(s: Shopper, paths = nl) {
  const overview = await s.get(paths.overview);
  expect(overview.statusCode).toBe(200);
  const form = {
    orderKey: field(overview.body, "orderKey"),
    fingerprint: field(overview.body, "fingerprint"),
  };
  return { form, res: await s.post(paths.overview, form) };
}

const db = () => shop.database.db;
const ordersOf = (email: string) =>
  db().selectFrom("orders").selectAll().where("email", "=", email).execute();
/** The order page of the one order placed for this address, with its own secret. */
const orderPageOf = async (email: string, paths = nl) => {
  const [order] = await ordersOf(email);
  return orderPageLink(Number(order?.id), paths === nl ? "nl" : "de");
};
/** Pays on the test provider's page as the tester does; returns the order page it sends back to. */
async function pay(s: Shopper, testPage: string, outcome = "paid"): Promise<string> {
  expect((await s.get(testPage)).statusCode).toBe(200);
  const res = await s.post(testPage, { outcome });
  expect(res.statusCode).toBe(303);
  return pathOf(res.headers.location);
}
/** Mails queued for this address, with the no-break spaces of money amounts read as spaces. */
const mailsTo = async (email: string) =>
  (await db().selectFrom("outbox").selectAll().where("to_address", "=", email).execute()).map((m) => ({
    ...m,
    text_body: m.text_body.replace(/\u00a0/g, " "),
  }));

describe("the steps guard their order", () => {
  it("the address step with an empty cart goes back to the contents", async () => {
    const s = await shopper(shop.app);
    for (const url of [nl.address, nl.overview]) {
      const res = await s.get(url);
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location).toBe(nl.contents);
    }
  });

  it("the overview without an address goes to the address step", async () => {
    const s = await withCart();
    const res = await s.get(nl.overview);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(nl.address);
  });

  it("a posted address without anything in the cart is not saved, and leads back to the contents", async () => {
    const s = await shopper(shop.app);
    const res = await s.post(nl.address, { ...anna, email: "empty-cart@example.nl" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(nl.contents);
    expect(
      await db()
        .selectFrom("cart_addresses")
        .selectAll()
        .where("email", "=", "empty-cart@example.nl")
        .execute(),
    ).toEqual([]);
  });

  it("an invalid address posted without anything in the cart also leads back to the contents", async () => {
    const s = await shopper(shop.app);
    const res = await s.post(nl.address, { ...anna, postcode: "12", email: "not an address" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(nl.contents);
  });
});

describe("the address step", () => {
  it("asks for name, street and number, postcode, city, country, e-mail and an optional phone number", async () => {
    const s = await withCart();
    const res = await s.get(nl.address);
    expect(res.statusCode).toBe(200);
    const html = main(res.body);
    for (const [name, label] of [
      ["name", "Naam"],
      ["street", "Straat en huisnummer"],
      ["postcode", "Postcode"],
      ["city", "Plaats"],
      ["country", "Land"],
      ["email", "E-mailadres"],
      ["phone", "Telefoonnummer (niet verplicht)"],
    ]) {
      expect(html).toContain(`<label class="form-label" for="address-${name}">${label}</label>`);
    }
    // The country of the shop's language is chosen already; the postcode is checked remotely for it.
    expect(html).toContain('<option value="NL" selected>Nederland</option>');
    expect(html).toContain('data-val-remote-url="/api/postcode-controle"');
    expect(html).toContain('data-val-remote-additionalfields="country"');
    expect(html).toContain('aria-current="step"');
  });

  it("in German, with Germany chosen and German labels", async () => {
    const s = await withCart(de);
    const html = main((await s.get(de.address)).body);
    expect(html).toContain('<option value="DE" selected>Deutschland</option>');
    expect(html).toContain(">Straße und Hausnummer</label>");
    expect(html).toContain(">Telefonnummer (optional)</label>");
    expect(textOf(html)).not.toMatch(/Straat|Plaats|verplicht/);
  });

  it("refuses bad input with a message per field and in the summary, keeping every value", async () => {
    const s = await withCart();
    const typed = {
      ...anna,
      name: "",
      street: "Dorpsstraat",
      postcode: "10115",
      email: "anna@",
      phone: "bel me",
    };
    for (const ajax of [false, true]) {
      const res = await s.post(nl.address, typed, { ajax });
      expect(res.statusCode).toBe(422);
      const html = main(res.body);
      for (const message of [
        "Dit is een verplicht veld.",
        "Vul ook je huisnummer in.",
        "Vul een Nederlandse postcode in, zoals 1234 AB.",
        "Vul hier een geldig e-mailadres in.",
        "Vul een telefoonnummer in van 6 tot 20 tekens",
      ]) {
        expect(html).toContain(message);
      }
      expect(html).toContain(
        '<li><a href="#address-postcode">Vul een Nederlandse postcode in, zoals 1234 AB.</a></li>',
      );
      for (const value of ["Dorpsstraat", "10115", "Utrecht", "anna@", "bel me"])
        expect(html).toContain(`value="${value}"`);
      expect(html).toContain('<option value="NL" selected>');
    }
    expect((await s.get(nl.overview)).headers.location).toBe(nl.address);
  });

  it("checks the postcode for the chosen country: five digits for Germany", async () => {
    const s = await withCart();
    const res = await s.post(nl.address, { ...anna, country: "DE", postcode: "1234 AB" });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain("Vul een Duitse postcode in van vijf cijfers, zoals 10115.");
    const unknown = await s.post(nl.address, { ...anna, country: "BE" });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.body).toContain("Kies een van de mogelijkheden.");
  });

  it("saves a good address on the cart, postcode as the post office writes it, and goes on to the overview", async () => {
    const s = await withCart();
    const res = await s.post(nl.address, anna);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(nl.overview);
    const again = main((await s.get(nl.address)).body);
    expect(again).toContain('value="1234 AB"');
    expect(again).toContain('value="Anna de Vries"');
  });
});

describe("the overview", () => {
  it("shows the lines, the address, the expected production time, the totals and says the payment page follows", async () => {
    const s = await readyToOrder();
    const res = await s.get(nl.overview);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const text = textOf(main(res.body));
    expect(text).toContain("Controleer je bestelling");
    expect(text).toContain("Exclusief fotoboek Staand, 21x30 cm 2 × € 49,99 Totaal: € 99,98");
    expect(text).toContain("Anna de Vries Dorpsstraat 12 1234 AB Utrecht Nederland");
    expect(text).toContain("E-mail: anna@example.nl Telefoon: 06 12345678");
    expect(text).toContain("Verwachte levering Productietijd: 3 tot 5 werkdagen.");
    expect(text).toContain("Totaal € 99,98");
    expect(text).toContain("Na het bestellen ga je direct door naar de betaalpagina.");
    expect(text).not.toContain("Online betalen kan nog niet");
    expect(res.body).toMatch(
      /<button class="button button--large" type="submit"[^>]*>Bestellen met betalingsverplichting<\/button>/,
    );
    expect(field(res.body, "orderKey")).toMatch(/^[\w-]{22}$/);
  });

  /** What the overview shows between its last block and the order button: nothing may come between. */
  const aboveTheButton = (html: string) =>
    /<section class="checkout-essentials"[\s\S]*?<\/section>\s*<form class="checkout-place"/.exec(html)?.[0];

  it("directly above the order button: the products' characteristics, the total, the delivery time, the terms and the exclusion", async () => {
    const s = await readyToOrder();
    const essentials = aboveTheButton((await s.get(nl.overview)).body);
    expect(essentials).toBeDefined();
    const text = textOf(essentials ?? "");
    expect(text).toContain(
      "2 × Exclusief fotoboek, Staand, 21x30 cm: Een luxe fotoboek met een stevige harde kaft en dik, mat fotopapier",
    );
    // The exclusive photo book ships free; the total names the VAT it includes.
    expect(text).toContain("Totaal € 99,98, inclusief 21% btw (€ 17,35); de verzending is gratis.");
    expect(text).toContain("Productietijd: 3 tot 5 werkdagen.");
    expect(text).toContain("voor persoonlijk gemaakte producten geldt geen herroepingsrecht");
    expect(essentials).toContain('<a href="/algemene-voorwaarden">Algemene voorwaarden</a>');
    expect(essentials).toContain('<a href="/herroepingsrecht">Informatie over het herroepingsrecht</a>');
  });

  it("in German, names the shipping cost in the total and links the AGB and the Widerrufsbelehrung above the button", async () => {
    const s = await withCart(de, [{ ...prints, quantity: "3" }]);
    await s.post(de.address, { ...anna, postcode: "10115", city: "Berlin", country: "DE" });
    const essentials = aboveTheButton((await s.get(de.overview)).body) ?? "";
    const text = textOf(essentials);
    expect(text).toMatch(/3 × Klassische Fotoabzüge, Querformat, 15x10 cm: Ihre Fotos auf echtem Fotopapier/);
    expect(text).toMatch(
      /Gesamtpreis [\d,]+ €, inklusive 19 % MwSt\. \([\d,]+ €\) und Versandkosten \(6,95 €\)\./,
    );
    expect(text).toContain("Für nach Kundenspezifikation angefertigte Waren besteht kein Widerrufsrecht.");
    expect(essentials).toContain('<a href="/agb">Allgemeine Geschäftsbedingungen</a>');
    expect(essentials).toContain('<a href="/widerrufsbelehrung">Widerrufsbelehrung</a>');
  });

  it("says when the parcel is sent and delivered if ordered now, from the delivery-times computation", async () => {
    // Monday 23 November 2026, 10:00 in Amsterdam: before the cut-off, so production starts today.
    const monday = await testShop({ now: () => new Date("2026-11-23T09:00:00Z") });
    try {
      const s = await shopper(monday.app, nl.product);
      await s.post(nl.contents, { ...book, quantity: "1" });
      await s.post(nl.address, anna);
      const text = textOf(main((await s.get(nl.overview)).body));
      // Three to five working days from Monday (production starts the day it is ordered), then
      // one working day with the carrier.
      expect(text).toContain(
        "Verzonden: woensdag 25 – vrijdag 27 november Bezorgd: donderdag 26 – maandag 30 november " +
          "Bij bestelling vandaag vóór 15:00 uur.",
      );
    } finally {
      await monday.close();
    }
  });

  it("gives the slowest product's production time for the whole order", async () => {
    const s = await withCart(nl, [
      { ...prints, quantity: "5" },
      { product: "classic-photobook", orientation: "landscape", size: "20x15", quantity: "1" },
    ]);
    await s.post(nl.address, anna);
    expect(textOf((await s.get(nl.overview)).body)).toContain("Productietijd: 4 tot 6 werkdagen.");
  });

  it("in German, orders with a button that says ordering means paying, as German law asks", async () => {
    const s = await readyToOrder(de, { ...anna, postcode: "10115", city: "Berlin", country: "DE" });
    const res = await s.get(de.overview);
    const text = textOf(main(res.body));
    expect(text).toContain("Bestellung prüfen");
    expect(text).toContain("Produktionszeit: 3 bis 5 Werktage.");
    expect(text).toContain("Darin enthaltene MwSt. (19 %)");
    expect(text).toContain("Nach der Bestellung gelangen Sie direkt zur Zahlungsseite.");
    expect(text).not.toContain("Online bezahlen ist noch nicht möglich");
    expect(res.body).toMatch(
      /<button class="button button--large" type="submit"[^>]*>Zahlungspflichtig bestellen<\/button>/,
    );
    expect(text).not.toMatch(/Bestelling|Verzend|werkdag|betalen/);
  });
});

describe("placing the order", () => {
  it("stores the order awaiting payment without a mail, empties the cart and goes to the payment page; paying sends the confirmation", async () => {
    const email = "place@example.nl";
    const s = await readyToOrder(nl, { ...anna, email });
    const { res } = await placeOrder(s);
    expect(res.statusCode).toBe(303);
    const testPage = pathOf(res.headers.location);
    expect(testPage).toMatch(testPayment.nl);

    const [order] = await ordersOf(email);
    expect(order).toMatchObject({
      status: "awaiting_payment",
      locale: "nl",
      postcode: "1234 AB",
      country: "NL",
    });
    expect(Number(order?.total_cents)).toBe(9998);
    expect(Number(order?.vat_cents)).toBe(1735);
    const lines = await db()
      .selectFrom("order_lines")
      .selectAll()
      .where("order_id", "=", Number(order?.id))
      .execute();
    expect(lines).toMatchObject([
      { product_id: "exclusive-photobook", product_name: "Exclusief fotoboek", size_id: "21x30" },
    ]);
    expect(lines.map((l) => Number(l.quantity))).toEqual([2]);
    // Placing an order mails nobody: the confirmation waits for the money.
    expect(await mailsTo(email)).toEqual([]);

    const cart = await s.get(nl.contents);
    expect(textOf(main(cart.body))).toContain("Je winkelwagen is leeg");

    // The order page, before paying: the number, awaiting payment, the mail still to come.
    const orderPage = await orderPageOf(email);
    expect(orderPage).toMatch(/^\/bestelling\/1\d{5}\?code=[\w-]{43}$/);
    const number = /\/(\d+)\?/.exec(orderPage)?.[1] ?? "";
    const before = await s.get(orderPage);
    expect(before.statusCode).toBe(200);
    const waiting = textOf(main(before.body));
    expect(waiting).toContain("Bedankt voor je bestelling!");
    expect(waiting).toContain(`Je bestelnummer is ${number}.`);
    expect(waiting).toContain("Status: Wacht op betaling");
    expect(waiting).toContain(`Zodra je betaling binnen is, sturen we een bevestiging naar ${email}.`);
    expect(before.body).toMatch(/class="cart-link__count"[^>]*data-count="0"/);

    // Paid on the provider's page: back on the order page, paid, and the confirmation queued.
    expect(await pay(s, testPage)).toBe(orderPage);
    const [paid] = await ordersOf(email);
    expect(paid?.status).toBe("paid");
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({ kind: "order-confirmation", locale: "nl", sent_at: null });
    expect(mail?.subject).toBe(`Betaling ontvangen: je bestelling ${number} bij Fotohoek`);
    expect(mail?.text_body).toContain("Beste Anna de Vries,");
    expect(mail?.text_body).toContain("2 × Exclusief fotoboek (Staand, 21x30 cm): € 99,98");
    expect(mail?.text_body).toContain("We hebben je betaling van € 99,98 ontvangen.");
    expect(mail?.text_body).toContain("1234 AB Utrecht");

    const confirmation = await s.get(orderPage);
    expect(confirmation.statusCode).toBe(200);
    const text = textOf(main(confirmation.body));
    expect(text).toContain(`Je bestelnummer is ${number}.`);
    expect(text).toContain("Status: Betaald");
    expect(text).toContain(`We hebben een bevestiging gestuurd naar ${email}.`);
    expect(text).not.toContain("Betaal opnieuw");

    // The address went with the order: the next order starts from a clean form.
    await s.post(nl.contents, { ...book, quantity: "1" });
    expect((await s.get(nl.overview)).headers.location).toBe(nl.address);
  });

  it("wakes the mail sender once the payment is received, so the confirmation goes out at once, and not before", async () => {
    let wakes = 0;
    const own = await listeningShop({ mailQueued: () => wakes++ });
    try {
      const s = await shopper(own.app, nl.product);
      expect((await s.post(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      expect((await s.post(nl.address, anna)).statusCode).toBe(303);
      expect(wakes).toBe(0);
      const overview = await s.get(nl.overview);
      const form = {
        orderKey: field(overview.body, "orderKey"),
        fingerprint: field(overview.body, "fingerprint"),
      };
      const placed = await s.post(nl.overview, form);
      expect(placed.statusCode).toBe(303);
      // Placed, awaiting payment: no mail, nothing to wake.
      expect(wakes).toBe(0);
      expect((await s.post(nl.overview, form)).statusCode).toBe(303);
      expect(wakes).toBe(0);

      const testPage = pathOf(placed.headers.location);
      expect(testPage).toMatch(testPayment.nl);
      expect((await s.get(testPage)).statusCode).toBe(200);
      expect((await s.post(testPage, { outcome: "paid" })).statusCode).toBe(303);
      expect(wakes).toBe(1);
      // A replayed webhook and a retried place-order post find the order paid: no new mail.
      const paymentId = testPage.split("/").pop() ?? "";
      const replay = await own.app.inject({
        method: "POST",
        url: "/api/betalingen/webhook",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: `id=${paymentId}`,
      });
      expect(replay.statusCode).toBe(200);
      expect((await s.post(nl.overview, form)).statusCode).toBe(303);
      expect(wakes).toBe(1);
      expect(await own.database.db.selectFrom("outbox").select("kind").execute()).toEqual([
        { kind: "order-confirmation" },
      ]);
    } finally {
      await own.close();
    }
  });

  it("renews the cart cookie when the address is saved and the order placed, so the confirmation stays reachable", async () => {
    const s = await withCart();
    const renewed = (res: { cookies: Array<{ name: string; value: string; maxAge?: number }> }) =>
      res.cookies.find((c) => c.name === "cart");
    const cookie = s.cookies.get("cart");
    const saved = await s.post(nl.address, anna);
    expect(renewed(saved)).toMatchObject({ value: cookie, maxAge: 60 * 60 * 24 * 60 });
    const { res } = await placeOrder(s);
    expect(res.statusCode).toBe(303);
    expect(renewed(res)).toMatchObject({ value: cookie, maxAge: 60 * 60 * 24 * 60 });
  });

  it("with a tampered cart cookie, places no order for the cart it names and leads to the contents", async () => {
    const email = "victim@example.nl";
    const victim = await readyToOrder(nl, { ...anna, email });
    const overview = await victim.get(nl.overview);
    const form = {
      orderKey: field(overview.body, "orderKey"),
      fingerprint: field(overview.body, "fingerprint"),
    };
    const cartId = shop.app.unsignCookie(victim.cookies.get("cart") ?? "").value ?? "";
    const attacker = await shopper(shop.app);
    for (const forged of [`${cartId}.${"A".repeat(43)}`, cartId, `${victim.cookies.get("cart")}x`]) {
      attacker.cookies.set("cart", forged);
      const res = await attacker.post(nl.overview, form);
      expect(res.statusCode, forged).toBe(303);
      expect(res.headers.location).toBe(nl.contents);
    }
    expect(await ordersOf(email)).toHaveLength(0);
    expect(await cartRepository(db()).itemCount(cartId)).toBe(2);
  });

  it("a double submit or a retried request makes one order and one open payment, and paying it one mail", async () => {
    const email = "twice@example.nl";
    const s = await readyToOrder(nl, { ...anna, email });
    const { form, res } = await placeOrder(s);
    expect(pathOf(res.headers.location)).toMatch(testPayment.nl);
    const again = await s.post(nl.overview, form);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(res.headers.location);
    const atOnce = await Promise.all([s.post(nl.overview, form), s.post(nl.overview, form)]);
    expect(atOnce.map((r) => r.headers.location)).toEqual([res.headers.location, res.headers.location]);
    const orders = await ordersOf(email);
    expect(orders).toHaveLength(1);
    const orderId = Number(orders[0]?.id);
    const payments = () =>
      db().selectFrom("order_payments").select("payment_id").where("order_id", "=", orderId).execute();
    expect(await payments()).toHaveLength(1);
    expect(await mailsTo(email)).toEqual([]);

    // Paid once; posting the overview again afterwards shows the paid order and starts nothing.
    const orderPage = await pay(s, pathOf(res.headers.location));
    const afterPaying = await Promise.all([s.post(nl.overview, form), s.post(nl.overview, form)]);
    expect(afterPaying.map((r) => pathOf(r.headers.location))).toEqual([orderPage, orderPage]);
    expect(await ordersOf(email)).toHaveLength(1);
    expect(await payments()).toHaveLength(1);
    expect((await mailsTo(email)).map((m) => m.kind)).toEqual(["order-confirmation"]);
  });

  it("two clicks at once on a fresh overview still make one order", async () => {
    const email = "double-click@example.nl";
    const s = await readyToOrder(nl, { ...anna, email });
    const overview = await s.get(nl.overview);
    const form = {
      orderKey: field(overview.body, "orderKey"),
      fingerprint: field(overview.body, "fingerprint"),
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => s.post(nl.overview, form)));
    expect(new Set(answers.map((r) => r.headers.location)).size).toBe(1);
    expect(await ordersOf(email)).toHaveLength(1);
  });

  it("when the cart changed after the overview (another tab), shows the overview again instead of ordering", async () => {
    const email = "changed@example.nl";
    const s = await readyToOrder(nl, { ...anna, email });
    const overview = await s.get(nl.overview);
    await s.post(nl.contents, { ...prints, quantity: "3" });
    const res = await s.post(nl.overview, {
      orderKey: field(overview.body, "orderKey"),
      fingerprint: field(overview.body, "fingerprint"),
    });
    expect(res.statusCode).toBe(422);
    const text = textOf(main(res.body));
    expect(text).toContain("Je winkelwagen of adres is intussen veranderd.");
    expect(text).toContain("Klassieke fotoafdrukken");
    expect(field(res.body, "orderKey")).not.toBe(field(overview.body, "orderKey"));
    expect(await ordersOf(email)).toHaveLength(0);
  });

  it("refuses a form with a missing or malformed key without ordering", async () => {
    const email = "badkey@example.nl";
    const s = await readyToOrder(nl, { ...anna, email });
    const overview = await s.get(nl.overview);
    for (const orderKey of ["", "short", "x".repeat(200)]) {
      const res = await s.post(nl.overview, { orderKey, fingerprint: field(overview.body, "fingerprint") });
      expect(res.statusCode).toBe(422);
    }
    expect(await ordersOf(email)).toHaveLength(0);
  });

  it("with an empty cart, or without an address, goes to the step that is missing", async () => {
    const empty = await shopper(shop.app);
    const key = { orderKey: "a".repeat(22), fingerprint: "x" };
    expect((await empty.post(nl.overview, key)).headers.location).toBe(nl.contents);
    const noAddress = await withCart();
    expect((await noAddress.post(nl.overview, key)).headers.location).toBe(nl.address);
  });

  it("shows the order page only by its own link, never by the cart cookie that placed it", async () => {
    const email = "mine@example.nl";
    const s = await readyToOrder(nl, { ...anna, email });
    const { res } = await placeOrder(s);
    expect(res.statusCode).toBe(303);
    const url = await orderPageOf(email);
    const bare = url.split("?")[0] ?? "";
    expect((await s.get(url)).statusCode).toBe(200);
    expect((await s.get(bare)).statusCode).toBe(404);
    expect((await s.get(`${bare}?code=${"a".repeat(43)}`)).statusCode).toBe(404);
    const stranger = await shopper(shop.app);
    expect((await stranger.get(bare)).statusCode).toBe(404);
    expect((await s.get("/bestelling/999999999")).statusCode).toBe(404);
    expect((await s.get("/bestelling/abc")).statusCode).toBe(404);
    // The provider sends the shopper back to it: still nobody else's, also once paid.
    expect(await pay(s, pathOf(res.headers.location))).toBe(url);
    expect((await stranger.get(bare)).statusCode).toBe(404);
    // The same order in German, at its German address.
    const german = await s.get(url.replace("/bestelling/", "/bestellung/"));
    expect(german.statusCode).toBe(200);
    expect(textOf(main(german.body))).toContain("Ihre Bestellnummer lautet");
  });

  it("in German: the order, its payment page, its mail and its order page are in German", async () => {
    const email = "bestellung@example.de";
    const s = await readyToOrder(de, { ...anna, postcode: "10115", city: "Berlin", country: "DE", email });
    const { res } = await placeOrder(s, de);
    const testPage = pathOf(res.headers.location);
    expect(testPage).toMatch(testPayment.de);
    const [order] = await ordersOf(email);
    expect(order?.locale).toBe("de");
    const orderPage = await orderPageOf(email, de);
    const waiting = textOf(main((await s.get(orderPage)).body));
    expect(waiting).toContain("Vielen Dank für Ihre Bestellung!");
    expect(waiting).toContain("Zahlung ausstehend");
    expect(await mailsTo(email)).toEqual([]);

    expect(textOf(main((await s.get(testPage)).body))).toContain("Dies ist eine Testzahlung");
    expect(await pay(s, testPage)).toBe(orderPage);
    const [mail] = await mailsTo(email);
    expect(mail?.locale).toBe("de");
    expect(mail?.subject).toMatch(/^Zahlung erhalten: Ihre Bestellung \d+ bei Fotohoek$/);
    expect(mail?.text_body).toContain("Guten Tag Anna de Vries,");
    expect(mail?.text_body).toContain("2 × Exklusives Fotobuch (Hochformat, 21x30 cm): 99,98 €");
    expect(mail?.text_body).toContain("Wir haben Ihre Zahlung über 99,98 € erhalten.");
    expect(mail?.text_body).toContain("10115 Berlin");
    expect(mail?.text_body).not.toMatch(/Beste |bestelling|Verzend|werkdag|betaling/);
    const text = textOf(main((await s.get(orderPage)).body));
    expect(text).toContain("Vielen Dank für Ihre Bestellung!");
    expect(text).toContain("Status: Bezahlt");
    expect(text).not.toMatch(/Bedankt|Betaald|bestelnummer/);
  });
});

describe("when the database fails", () => {
  it("the cart pages show a localized page with how to reach customer service, never a stack trace", async () => {
    const broken = await testShop();
    const s = await shopper(broken.app);
    expect((await s.post(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
    await broken.database.close();
    for (const [url, title] of [
      [nl.contents, "Je winkelwagen is even niet bereikbaar"],
      [de.contents, "Ihr Einkaufswagen ist gerade nicht erreichbar"],
      [nl.address, "Je winkelwagen is even niet bereikbaar"],
      [de.overview, "Ihr Einkaufswagen ist gerade nicht erreichbar"],
    ] as const) {
      const res = await s.get(url);
      expect(res.statusCode, url).toBe(503);
      expect(res.body).toContain(title);
      expect(res.body).not.toMatch(/at \w+ \(|SqliteError|TypeError/);
    }
    const nlPage = main((await s.get(nl.contents)).body);
    expect(nlPage).toContain('href="mailto:klantenservice@fotohoek.nl"');
    expect(nlPage).toContain('href="tel:+31851234567"');
    const dePage = main((await s.get(de.contents)).body);
    expect(dePage).toContain('href="mailto:kundenservice@fotohoek.de"');
    expect(textOf(dePage)).toContain("Wenden Sie sich an den Kundenservice:");
    const add = await s.post(nl.contents, { ...book, quantity: "1" });
    expect(add.statusCode).toBe(503);
    await broken.close();
  });

  it("with JavaScript, a cart change answers with the message and customer service in place of the region", async () => {
    const broken = await testShop();
    const s = await shopper(broken.app);
    expect((await s.post(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
    await broken.database.close();
    for (const [fields, retry] of [
      // From the product page: "try again" leads back to the option the shopper chose.
      [
        { ...book, quantity: "1" },
        "/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&amp;formaat=21x30",
      ],
      [{ ...prints, quantity: "1", from: "cart" }, nl.contents],
      [{ ...book, quantity: "3", intent: "update" }, nl.contents],
      [{ ...book, intent: "remove" }, nl.contents],
    ] as const) {
      const res = await s.post(nl.contents, fields, { ajax: true });
      expect(res.statusCode, JSON.stringify(fields)).toBe(503);
      // The ajax behaviour shows an error answer only when it is marked as the fragment.
      expect(res.headers["x-ajax-fragment"]).toBe("true");
      expect(res.body).not.toContain("<html");
      expect(res.body).toMatch(/role="alert"[\s\S]*Je winkelwagen is even niet bereikbaar/);
      expect(textOf(res.body)).toContain(
        "Wat al in je winkelwagen zat en bestellingen die je hebt geplaatst, blijven bewaard.",
      );
      expect(res.body).toContain('href="mailto:klantenservice@fotohoek.nl"');
      expect(res.body).toContain(`<a class="button" href="${retry}">Opnieuw proberen</a>`);
    }
    const german = await s.post(de.contents, { ...book, quantity: "1" }, { ajax: true });
    expect(german.statusCode).toBe(503);
    expect(textOf(german.body)).toContain("Ihr Einkaufswagen ist gerade nicht erreichbar");
    expect(german.body).toContain('href="mailto:kundenservice@fotohoek.de"');
    expect(german.body).toContain('href="/sortiment/fotobuecher/exklusives-fotobuch?');
    expect(textOf(german.body)).not.toMatch(/winkelwagen|klantenservice/i);
    await broken.close();
  });

  it("a posted address comes back whole, with a message, when it cannot be saved", async () => {
    const broken = await testShop();
    const s = await shopper(broken.app);
    expect((await s.post(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
    await broken.database.close();
    const res = await s.post(nl.address, anna);
    expect(res.statusCode).toBe(503);
    const html = main(res.body);
    expect(textOf(html)).toContain(
      "Door een storing konden we je adres nu niet opslaan. Alles wat je invulde staat er nog",
    );
    for (const value of [
      "Anna de Vries",
      "Dorpsstraat 12",
      "1234ab",
      "Utrecht",
      "anna@example.nl",
      "06 12345678",
    ]) {
      expect(html).toContain(`value="${value}"`);
    }
    await broken.close();
  });

  it("a payment whose confirmation cannot be queued leaves the order unpaid; the provider's next call marks it paid and mails once", async () => {
    let wakes = 0;
    const own = await listeningShop({ mailQueued: () => wakes++ });
    const ownDb = own.database.db;
    try {
      const email = "outbox-down@example.nl";
      const s = await shopper(own.app, nl.product);
      await s.post(nl.contents, { ...book, quantity: "2" });
      await s.post(nl.address, { ...anna, email });
      const overview = await s.get(nl.overview);
      const placed = await s.post(nl.overview, {
        orderKey: field(overview.body, "orderKey"),
        fingerprint: field(overview.body, "fingerprint"),
      });
      const testPage = pathOf(placed.headers.location);
      expect(testPage).toMatch(testPayment.nl);
      const paymentId = testPage.split("/").pop() ?? "";
      const [order] = await ownDb
        .selectFrom("orders")
        .select(["id", "status"])
        .where("email", "=", email)
        .execute();
      const orderId = Number(order?.id);
      const statusOf = async () =>
        (await ownDb.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirst())
          ?.status;
      const webhook = () =>
        own.app.inject({
          method: "POST",
          url: "/api/betalingen/webhook",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: `id=${paymentId}`,
        });

      // The outbox fails inside the transaction that would mark the order paid: the change goes with it.
      await sql`ALTER TABLE outbox RENAME TO outbox_away`.execute(ownDb);
      let orderPage: string;
      try {
        orderPage = await pay(s, testPage);
        expect(await statusOf()).toBe("awaiting_payment");
        // The webhook answers 503 while it cannot do the work, so the provider calls again.
        expect((await webhook()).statusCode).toBe(503);
        expect(await statusOf()).toBe("awaiting_payment");
        expect(
          await ownDb.selectFrom("order_transitions").selectAll().where("order_id", "=", orderId).execute(),
        ).toEqual([]);
        expect(wakes).toBe(0);
        expect(textOf(main((await s.get(orderPage)).body))).not.toContain("Betaald");
        // "Betaal opnieuw" meanwhile starts no second payment for money already paid.
        const payAgain = await s.post(orderPage, {});
        expect(pathOf(payAgain.headers.location)).not.toMatch(testPayment.nl);
        expect(
          await ownDb
            .selectFrom("order_payments")
            .select("payment_id")
            .where("order_id", "=", orderId)
            .execute(),
        ).toEqual([{ payment_id: paymentId }]);
        const queued = await sql<{ n: number }>`select count(*) as n from outbox_away`.execute(ownDb);
        expect(Number(queued.rows[0]?.n)).toBe(0);
      } finally {
        await sql`ALTER TABLE outbox_away RENAME TO outbox`.execute(ownDb);
      }
      const mails = () =>
        ownDb.selectFrom("outbox").select(["kind", "locale"]).where("to_address", "=", email).execute();

      // The provider's next call (a retry, or a replay) finds the outbox back: paid, one mail.
      expect((await webhook()).statusCode).toBe(200);
      expect(await statusOf()).toBe("paid");
      expect(await mails()).toEqual([{ kind: "order-confirmation", locale: "nl" }]);
      expect(wakes).toBe(1);
      expect((await webhook()).statusCode).toBe(200);
      expect(await mails()).toHaveLength(1);
      expect(
        await ownDb
          .selectFrom("order_transitions")
          .select(["from_status", "to_status"])
          .where("order_id", "=", orderId)
          .execute(),
      ).toEqual([{ from_status: "awaiting_payment", to_status: "paid" }]);
      expect(textOf(main((await s.get(orderPage)).body))).toContain("Status: Betaald");
    } finally {
      await own.close();
    }
  });
});
