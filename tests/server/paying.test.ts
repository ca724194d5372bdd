import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderNumber } from "../../server/domain/order-number.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { freePort } from "../support/shop-process.ts";
import { type Shopper, shopper, textOf } from "../support/shopper.ts";

/**
 * Paying through the built-in test provider, as a shopper does it without JavaScript: place
 * the order, decide the test payment on the shop's test-payment page (which calls the
 * webhook over HTTP, so the shop listens), come back to the order page.
 */
let shop: TestShop;
let origin = "";

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  shop = await testShop({ env: { PUBLIC_URL: origin, PAYMENT_PROVIDER: "test" } });
  await shop.app.listen({ port, host: "127.0.0.1" });
});
afterAll(() => shop.close());

const paths = {
  nl: {
    contents: "/winkelwagen/inhoud",
    address: "/winkelwagen/adres",
    overview: "/winkelwagen/overzicht",
    product: "/assortiment/fotoboeken/exclusief-fotoboek",
    testPayment: /^\/testbetaling\/tp_[\w-]+$/,
    order: /^\/bestelling\/(\d{6,})\?code=[\w-]{43}$/,
  },
  de: {
    contents: "/einkaufswagen/inhalt",
    address: "/einkaufswagen/adresse",
    overview: "/einkaufswagen/uebersicht",
    product: "/sortiment/fotobuecher/exklusives-fotobuch",
    testPayment: /^\/testzahlung\/tp_[\w-]+$/,
    order: /^\/bestellung\/(\d{6,})\?code=[\w-]{43}$/,
  },
};
type Lang = keyof typeof paths;

const words = {
  nl: {
    place: "Bestellen met betalingsverplichting",
    testTitle: "Testbetaling",
    banner: "Dit is een testbetaling",
    paid: "Betaald",
    awaiting: "Wacht op betaling",
    failed: "De betaling is niet gelukt",
    notStarted: "Het betalen kon niet worden gestart",
    payAgain: "Betaal opnieuw",
    method: "iDEAL (test)",
  },
  de: {
    place: "Zahlungspflichtig bestellen",
    testTitle: "Testzahlung",
    banner: "Dies ist eine Testzahlung",
    paid: "Bezahlt",
    awaiting: "Zahlung ausstehend",
    failed: "Die Zahlung ist nicht gelungen",
    notStarted: "Die Zahlung konnte nicht gestartet werden",
    payAgain: "Erneut bezahlen",
    method: "iDEAL (Test)",
  },
};

const address = {
  nl: { name: "Anna de Vries", street: "Dorpsstraat 12", postcode: "1234ab", city: "Utrecht", country: "NL" },
  de: { name: "Jonas Weber", street: "Hauptstraße 5", postcode: "10115", city: "Berlin", country: "DE" },
};

const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html;
const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
/** A Location as the browser follows it: the shop's absolute return URL read as a path. */
/** A redirect's path with its query: the order page's holds the order's own secret. */
const pathOf = (location: unknown) => {
  const url = new URL(String(location), origin);
  return `${url.pathname}${url.search}`;
};

const db = () => shop.database.db;
const mailsTo = (email: string) =>
  db().selectFrom("outbox").select(["kind", "locale"]).where("to_address", "=", email).execute();

/** A shopper with a photo book and an address, on the overview with its place-order form. */
async function readyToPay(lang: Lang, email: string): Promise<Shopper> {
  const p = paths[lang];
  const s = await shopper(shop.app, p.product);
  const line = { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity: "1" };
  expect((await s.post(p.contents, line)).statusCode).toBe(303);
  expect((await s.post(p.address, { ...address[lang], email })).statusCode).toBe(303);
  return s;
}

async function place(s: Shopper, lang: Lang) {
  const overview = await s.get(paths[lang].overview);
  expect(overview.statusCode).toBe(200);
  expect(textOf(main(overview.body))).toContain(words[lang].place);
  const form = {
    orderKey: field(overview.body, "orderKey"),
    fingerprint: field(overview.body, "fingerprint"),
  };
  return { form, res: await s.post(paths[lang].overview, form) };
}

/** Chooses an outcome on the test-payment page; returns the order page the tester is sent to. */
async function decide(s: Shopper, testPage: string, outcome: string): Promise<string> {
  expect((await s.get(testPage)).statusCode).toBe(200);
  const res = await s.post(testPage, { outcome });
  expect(res.statusCode).toBe(303);
  return pathOf(res.headers.location);
}

describe.each(["nl", "de"] as const)("paying an order (%s)", (lang) => {
  const w = words[lang];

  it("placing the order leads to the test payment page, marked as a test, with amount and description", async () => {
    const email = `place-${lang}@example.test`;
    const s = await readyToPay(lang, email);
    const { res } = await place(s, lang);
    expect(res.statusCode).toBe(303);
    const testPage = pathOf(res.headers.location);
    expect(testPage).toMatch(paths[lang].testPayment);

    const page = await s.get(testPage);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<title>${w.testTitle} | Fotohoek</title>`);
    expect(page.body).toMatch(/<meta name="robots" content="noindex/);
    const text = textOf(main(page.body));
    expect(text).toContain(w.banner);
    const [order] = await db()
      .selectFrom("orders")
      .select(["id", "total_cents"])
      .where("email", "=", email)
      .execute();
    // The order's total as the shop formats money, and its number in the description.
    const euros = (Number(order?.total_cents) / 100).toFixed(2).replace(".", ",");
    expect(text).toContain(euros);
    expect(text).toContain(orderNumber(Number(order?.id)));
    // Placed awaiting payment, and no confirmation before the money is in.
    expect(await mailsTo(email)).toEqual([]);
  });

  it("paid: the order page says so and the confirmation mail is queued, once", async () => {
    const email = `paid-${lang}@example.test`;
    const s = await readyToPay(lang, email);
    const { res, form } = await place(s, lang);
    const orderPage = await decide(s, pathOf(res.headers.location), "paid");
    expect(orderPage).toMatch(paths[lang].order);

    const page = await s.get(orderPage);
    expect(page.statusCode).toBe(200);
    const text = textOf(main(page.body));
    expect(text).toContain(w.paid);
    expect(text).not.toContain(w.payAgain);
    expect(await mailsTo(email)).toEqual([{ kind: "order-confirmation", locale: lang }]);

    // A replayed place-order post after paying starts nothing: it shows the paid order.
    const again = await s.post(paths[lang].overview, form);
    expect(again.statusCode).toBe(303);
    expect(pathOf(again.headers.location)).toBe(orderPage);
    expect(
      await db()
        .selectFrom("test_payments")
        .selectAll()
        .where("redirect_url", "like", `%${orderPage}`)
        .execute(),
    ).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it("failed, then paid again from the order page with a chosen method", async () => {
    const email = `failed-${lang}@example.test`;
    const s = await readyToPay(lang, email);
    const { res } = await place(s, lang);
    const orderPage = await decide(s, pathOf(res.headers.location), "failed");

    const page = await s.get(orderPage);
    const text = textOf(main(page.body));
    expect(text).toContain(w.failed);
    expect(text).toContain(w.awaiting);
    expect(text).toContain(w.method);
    expect(main(page.body)).toContain('type="radio"');
    expect(await mailsTo(email)).not.toContainEqual(expect.objectContaining({ kind: "order-confirmation" }));

    const pay = await s.post(orderPage, { method: "creditcard" });
    expect(pay.statusCode).toBe(303);
    const second = pathOf(pay.headers.location);
    expect(second).toMatch(paths[lang].testPayment);
    expect(second).not.toBe(pathOf(res.headers.location));
    const [payment] = await db()
      .selectFrom("test_payments")
      .select(["method", "amount_cents"])
      .where("id", "=", second.split("/").pop() ?? "")
      .execute();
    expect(payment?.method).toBe("creditcard");

    expect(await decide(s, second, "paid")).toBe(orderPage);
    expect(textOf(main((await s.get(orderPage)).body))).toContain(w.paid);
    expect((await mailsTo(email)).filter((m) => m.kind === "order-confirmation")).toHaveLength(1);
  });

  it("cancelled: the order waits for payment and offers to pay again", async () => {
    const email = `cancelled-${lang}@example.test`;
    const s = await readyToPay(lang, email);
    const { res } = await place(s, lang);
    const orderPage = await decide(s, pathOf(res.headers.location), "canceled");
    const text = textOf(main((await s.get(orderPage)).body));
    expect(text).toContain(w.failed);
    expect(text).toContain(w.awaiting);
    expect(text).toContain(w.payAgain);
    expect(await mailsTo(email)).not.toContainEqual(expect.objectContaining({ kind: "order-confirmation" }));
  });

  it("an order page and its pay form are not found without the order's own link", async () => {
    const s = await readyToPay(lang, `mine-${lang}@example.test`);
    const { res } = await place(s, lang);
    const orderPage = await decide(s, pathOf(res.headers.location), "open");
    const bare = orderPage.split("?")[0] ?? "";
    const stranger = await shopper(shop.app, paths[lang].product);
    expect((await stranger.get(bare)).statusCode).toBe(404);
    expect((await stranger.post(bare, {})).statusCode).toBe(404);
    // Not even the browser that ordered opens it by its cart cookie alone.
    expect((await s.get(bare)).statusCode).toBe(404);
  });
});

describe("when the provider cannot be reached", () => {
  it("placing the order lands on its page with the notice, and it can be paid from there later", async () => {
    const email = "unavailable@example.test";
    const s = await readyToPay("nl", email);
    // The test provider keeps its payments in the shop's database: without its table it is down.
    await sql`ALTER TABLE test_payments RENAME TO test_payments_away`.execute(db());
    let orderPage: string;
    try {
      const { res } = await place(s, "nl");
      expect(res.statusCode).toBe(303);
      orderPage = pathOf(res.headers.location);
      expect(orderPage).toMatch(paths.nl.order);
      const text = textOf(main((await s.get(orderPage)).body));
      expect(text).toContain(words.nl.notStarted);
      expect(text).toContain(words.nl.awaiting);
      expect(text).toContain(words.nl.payAgain);
    } finally {
      await sql`ALTER TABLE test_payments_away RENAME TO test_payments`.execute(db());
    }
    const [order] = await db().selectFrom("orders").select("status").where("email", "=", email).execute();
    expect(order?.status).toBe("awaiting_payment");

    const pay = await s.post(orderPage, {});
    expect(pathOf(pay.headers.location)).toMatch(paths.nl.testPayment);
    expect(await decide(s, pathOf(pay.headers.location), "paid")).toBe(orderPage);
    expect(textOf(main((await s.get(orderPage)).body))).toContain(words.nl.paid);
  });
});

describe("the test payment page", () => {
  it("does not exist for an unknown or malformed payment", async () => {
    const s = await shopper(shop.app);
    for (const id of ["tp_unknownunknownunknown", "nonsense", "%00"]) {
      expect((await s.get(`/testbetaling/${id}`)).statusCode, id).toBe(404);
    }
  });

  it("refuses an outcome it does not know, changing nothing", async () => {
    const s = await readyToPay("nl", "bad-outcome@example.test");
    const { res } = await place(s, "nl");
    const testPage = pathOf(res.headers.location);
    await s.get(testPage);
    const bad = await s.post(testPage, { outcome: "refunded" });
    expect(bad.statusCode).toBe(422);
    const id = testPage.split("/").pop() ?? "";
    const [payment] = await db().selectFrom("test_payments").select("status").where("id", "=", id).execute();
    expect(payment?.status).toBe("open");
  });
});
