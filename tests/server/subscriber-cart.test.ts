import { describe, expect, it } from "vitest";
import { runRenewals } from "../../server/jobs/subscription-renewal.ts";
import { orderLifecycleRepository } from "../../server/store/order-lifecycle-repository.ts";
import { annasAddress, placeFromOverview, signIn } from "../support/accounts.ts";
import { testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { testDatabases } from "../support/databases.ts";
import { orderPageLink } from "../support/orders.ts";
import { textOf } from "../support/shopper.ts";
import { silent, subscriptionShop } from "../support/subscription-shop.ts";

/**
 * What a photo subscription gives in the cart (ADR 0104): Premium's 50 free 10 × 15 prints a
 * month and its 20% off photo books, as lines of their own in the cart, the overview, the
 * order and its mail; used up by orders, and given back by an order that expires unpaid.
 */
const prints = (quantity: number, size = "15x10", orientation = "landscape") => ({
  product: "classic-prints",
  orientation,
  size,
  quantity: String(quantity),
});
const photoBook = { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity: "1" };
const cartPath = "/winkelwagen/inhoud";

describe.each(testDatabases())("a subscriber's cart on $name", (target) => {
  const sub = subscriptionShop(target);

  /** A Premium subscriber, signed in on a browser of their own. */
  async function subscriber(email: string) {
    await sub.open();
    const { id } = await sub.subscribe("nl", email);
    const { browser } = await signIn(sub.shop.app, email);
    return { id, browser };
  }

  const cartText = async (browser: BrowserSession) => textOf((await browser.get(cartPath)).body);

  /** The address and the overview, then the order placed: answers the order's row. */
  async function order(browser: BrowserSession) {
    await browser.form("/winkelwagen/adres", annasAddress);
    const overview = await browser.get("/winkelwagen/overzicht");
    const placed = await placeFromOverview(browser, overview);
    expect(placed.statusCode).toBe(303);
    const row = await sub.shop.database.db
      .selectFrom("orders")
      .selectAll()
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return {
      row,
      overview: textOf(overview.body),
      testPage: new URL(String(placed.headers.location)).pathname,
    };
  }

  it("takes the free prints and the photo-book discount off, says what is left, and the order keeps both", async () => {
    const { id, browser } = await subscriber("anna@example.test");
    await browser.get(cartPath);
    await browser.form(cartPath, prints(3));
    await browser.form(cartPath, prints(2, "18x13"));
    await browser.form(cartPath, photoBook);

    const page = await cartText(browser);
    // 3 × € 0,25 free; the 13 × 18 prints keep their price; 20% of € 49,99 is € 9,998: € 9,99 off.
    expect(page).toMatch(/3 gratis afdrukken van je abonnement −€\s0,75/);
    expect(page).toMatch(/Abonnementskorting op fotoboeken \(20%\) −€\s9,99/);
    expect(page).toContain("Nog 47 van je 50 gratis afdrukken deze maand.");
    // Subtotal 0,75 + 0,90 + 49,99 = 51,64; less 10,74; the photo book ships free.
    expect(page).toMatch(/Subtotaal €\s51,64/);
    expect(page).toMatch(/Totaal €\s40,90/);
    expect(page).toMatch(/Waarvan btw \(21%\) €\s7,10/);

    const { row, overview, testPage } = await order(browser);
    expect(overview).toMatch(/3 gratis afdrukken van je abonnement −€\s0,75/);
    expect(overview).toContain("Nog 47 van je 50 gratis afdrukken deze maand.");
    expect(row).toMatchObject({
      subtotal_cents: 5164,
      free_prints: 3,
      free_prints_cents: 75,
      photo_book_discount: 20,
      photo_book_discount_cents: 999,
      total_cents: 4090,
      vat_cents: 710,
      subscription_id: id,
      subscription_period: "2026-11-28",
    });

    // Paid, the order's page and its confirmation mail name both, as the cart did.
    await sub.decide(testPage, "paid");
    const orderPage = textOf((await browser.get(orderPageLink(Number(row.id)))).body);
    expect(orderPage).toMatch(/3 gratis afdrukken van je abonnement −€\s0,75/);
    expect(orderPage).toMatch(/Abonnementskorting op fotoboeken \(20%\) −€\s9,99/);
    const mail = (await sub.mails("anna@example.nl")).find((m) => m.kind === "order-confirmation");
    expect(mail?.text_body).toMatch(/3 gratis afdrukken van je abonnement: −€\s0,75/);
    expect(mail?.text_body).toMatch(/Abonnementskorting op fotoboeken \(20%\): −€\s9,99/);
    expect(mail?.text_body).toMatch(/Totaal: €\s40,90/);

    // The order used 3 of the month's 50.
    const account = textOf((await browser.get("/account/abonnement")).body);
    expect(account).toContain("Gratis afdrukken Nog 47 van je 50 gratis afdrukken deze maand.");
  });

  it("says the same in German: the free prints and the discount in the cart and the overview", async () => {
    await sub.open();
    await sub.subscribe("de", "lena@example.test");
    const { browser } = await signIn(sub.shop.app, "lena@example.test", undefined, { lang: "de" });
    const germanCart = "/einkaufswagen/inhalt";
    await browser.get(germanCart);
    await browser.form(germanCart, prints(3));
    await browser.form(germanCart, photoBook);
    const cart = textOf((await browser.get(germanCart)).body);
    // 3 × 0,25 € free; 20% of 49,99 € is 9,998 €: 9,99 € off.
    expect(cart).toMatch(/3 Gratis-Abzüge Ihres Abos −0,75\s€/);
    expect(cart).toMatch(/Abo-Rabatt auf Fotobücher \(20 %\) −9,99\s€/);
    expect(cart).toContain("Noch 47 von Ihren 50 Gratis-Abzügen in diesem Monat.");
    expect(cart).toContain("Gratis-Abzüge sind Fotos im Format 10 x 15 cm.");

    await browser.form("/einkaufswagen/adresse", {
      ...annasAddress,
      name: "Lena Schmidt",
      street: "Hauptstraße 5",
      postcode: "10115",
      city: "Berlin",
      country: "DE",
      email: "lena@example.test",
    });
    const overview = textOf((await browser.get("/einkaufswagen/uebersicht")).body);
    expect(overview).toMatch(/3 Gratis-Abzüge Ihres Abos −0,75\s€/);
    expect(overview).toMatch(/Abo-Rabatt auf Fotobücher \(20 %\) −9,99\s€/);
    expect(overview).toContain("Noch 47 von Ihren 50 Gratis-Abzügen in diesem Monat.");
  });

  it("uses up the month's prints across orders, and an order that expires unpaid gives them back", async () => {
    const { browser } = await subscriber("bram@example.test");
    await browser.get(cartPath);
    await browser.form(cartPath, prints(40));
    await order(browser);

    await browser.form(cartPath, prints(15, "10x15", "portrait"));
    const page = await cartText(browser);
    // 10 of the 15 are free: 40 went into the first order, awaiting its payment.
    expect(page).toMatch(/10 gratis afdrukken van je abonnement −€\s2,50/);
    expect(page).toContain("Nog 0 van je 50 gratis afdrukken deze maand.");

    // The first order is never paid: it expires, and its 40 prints come back.
    await orderLifecycleRepository(sub.shop.database.db).expireUnpaid(new Date(Date.now() + 1000));
    const after = await cartText(browser);
    expect(after).toMatch(/15 gratis afdrukken van je abonnement −€\s3,75/);
    expect(after).toContain("Nog 35 van je 50 gratis afdrukken deze maand.");
  });

  it("gives a guest, and a subscriber whose month failed to be paid, the full price; a kept page says so too", async () => {
    const { id, browser } = await subscriber("carla@example.test");
    await browser.get(cartPath);
    await browser.form(cartPath, prints(4));
    // Looked at twice: the second answer may be the page kept for these cookies.
    await browser.get(cartPath);
    expect(await cartText(browser)).toMatch(/4 gratis afdrukken van je abonnement −€\s1,00/);

    const guest = new BrowserSession(sub.shop.app);
    await guest.get(cartPath);
    await guest.form(cartPath, prints(4));
    const guestPage = await cartText(guest);
    expect(guestPage).not.toContain("gratis afdrukken van je abonnement");
    expect(guestPage).not.toContain("Nog ");

    // The next month's charge fails: past due, its period is not paid, so no free prints.
    const { charges } = sub.instance(sub.shop.database);
    await runRenewals({ database: sub.shop.database, charges, log: silent }, "2026-12-28");
    await sub.decide((await sub.charges(id))[0]?.page_url ?? null, "failed");
    expect((await sub.rows("carla@example.test"))[0]?.status).toBe("past_due");

    const again = await browser.get(cartPath);
    // Another instance of the shop never kept anything: it renders afresh.
    const other = await testShop({
      database: { ...sub.shop.database, close: async () => {} },
      env: { PUBLIC_URL: sub.origin, PAYMENT_PROVIDER: "test" },
      now: () => new Date("2026-11-28T10:00:00Z"),
    });
    try {
      const copy = new BrowserSession(other.app);
      copy.adopt(browser);
      const fresh = await copy.get(cartPath);
      expect(textOf(again.body)).toBe(textOf(fresh.body));
      expect(textOf(again.body)).not.toContain("gratis afdrukken van je abonnement");
      expect(textOf(again.body)).toMatch(/Subtotaal €\s1,00/);
    } finally {
      await other.app.close();
    }
  });
});
