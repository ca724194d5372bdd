import { afterEach, describe, expect, it } from "vitest";
import { orderNumber } from "../../server/domain/order-number.ts";
import { orderLifecycleRepository } from "../../server/store/order-lifecycle-repository.ts";
import { accountPaths, annasAddress, placeOrder, signedUp, signIn } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession, lookAsBrowser } from "../support/browser-session.ts";
import { testDatabases } from "../support/databases.ts";
import { orderPageLink } from "../support/orders.ts";
import { multipart, photos, startPhotoBook, uploadPhoto } from "../support/photos.ts";

const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const paths = {
  product: "/assortiment/fotoboeken/exclusief-fotoboek",
  contents: "/winkelwagen/inhoud",
  address: "/winkelwagen/adres",
  overview: "/winkelwagen/overzicht",
};

const look = lookAsBrowser;

/** A page looked at until it comes as kept: the same bytes twice (the first answer may set a cookie). */
async function lookTillKept(browser: BrowserSession, url: string) {
  await look(browser, url);
  const first = await look(browser, url);
  const again = await look(browser, url);
  expect(again.bytes.equals(first.bytes)).toBe(true);
  return first;
}

/** The same browser (its cookies) talking to the other instance. */
function elsewhere(two: TestShop, browser: BrowserSession): BrowserSession {
  const other = new BrowserSession(two.app);
  other.adopt(browser);
  return other;
}

/**
 * The checkout's pages and the order page are kept per shopper while what they show stands
 * (ready-answers.ts). Every change made through another instance of the shop, on the same
 * database, must show on the browser's very next request to the first one. SQLite is a file,
 * as the shop runs it: there a kept answer's check asks the database again only after a
 * commit, which it learns of from the file's WAL index (ready-answers.ts, wal-commits.ts).
 */
describe.each(testDatabases({ sqliteFile: true }))(
  "a shopper's kept pages, changed through another instance, on $name",
  (target) => {
    const shops: TestShop[] = [];
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      for (const s of shops.splice(0)) await s.app.close();
      await cleanup?.();
      cleanup = undefined;
    });

    async function twoShops(): Promise<[TestShop, TestShop]> {
      const opened = await target.open();
      cleanup = opened.cleanup;
      for (let i = 0; i < 2; i++) {
        const shop = await testShop({
          database: { ...opened.database, close: async () => {} },
          env: { SIGNUP_RATE_LIMIT: "1000" },
          sleep: async () => {},
        });
        shops.push(shop);
      }
      return [shops[0] as TestShop, shops[1] as TestShop];
    }

    /** A browser with a photo book in its cart and an address, on the first instance. */
    async function readyForTheOverview(one: TestShop, browser = new BrowserSession(one.app)) {
      await browser.get(paths.product);
      expect((await browser.form(paths.contents, { ...book, quantity: "2" })).statusCode).toBe(303);
      expect((await browser.form(paths.address, annasAddress)).statusCode).toBe(303);
      return browser;
    }

    it("the address step shows an address changed through the other instance", async () => {
      const [one, two] = await twoShops();
      const browser = await readyForTheOverview(one);
      const first = await lookTillKept(browser, paths.address);
      expect(first.html).toMatch(/id="address-street"[^>]*value="Dorpsstraat 12"/);

      const changed = await elsewhere(two, browser).form(paths.address, {
        ...annasAddress,
        street: "Kerkplein 1",
      });
      expect(changed.statusCode).toBe(303);
      expect((await look(browser, paths.address)).html).toMatch(
        /id="address-street"[^>]*value="Kerkplein 1"/,
      );
    });

    it("the overview shows a quantity changed through the other instance, and a new order key after it", async () => {
      const [one, two] = await twoShops();
      const browser = await readyForTheOverview(one);
      const first = await lookTillKept(browser, paths.overview);
      expect(first.text).toContain("2 ×");

      const other = elsewhere(two, browser);
      await other.get(paths.contents);
      const update = await other.form(paths.contents, { ...book, quantity: "3", intent: "update" });
      expect(update.statusCode).toBe(303);
      const after = await look(browser, paths.overview);
      expect(after.text).toContain("3 ×");
      const key = (html: string) => /name="orderKey" value="([^"]+)"/.exec(html)?.[1];
      expect(key(after.html)).toBeDefined();
      expect(key(after.html)).not.toBe(key(first.html));
    });

    it("the order page shows the order's next step, taken through the other instance", async () => {
      const [one, two] = await twoShops();
      const browser = new BrowserSession(one.app);
      const placed = await placeOrder(browser, annasAddress);
      expect(placed.statusCode).toBe(303);
      const { id } = await one.database.db.selectFrom("orders").select("id").executeTakeFirstOrThrow();
      const orderId = Number(id);
      const orderPath = orderPageLink(orderId);
      const paid = await orderLifecycleRepository(one.database.db).applyOrderEvent(
        orderId,
        { type: "payment_paid", paymentId: "tp_kept_page" },
        new Date(),
      );
      expect(paid).toMatchObject({ kind: "changed", to: "paid" });

      const first = await lookTillKept(browser, orderPath);
      expect(first.status).toBe(200);
      expect(first.text).toContain("Betaald");

      await orderLifecycleRepository(two.database.db).applyOrderEvent(
        orderId,
        { type: "production_started" },
        new Date(),
      );
      const after = await look(browser, orderPath);
      expect(after.text).toContain("In productie");

      // A new cart filled in another tab, through the other instance: the header counts it.
      const other = elsewhere(two, browser);
      await other.get(paths.product);
      expect((await other.form(paths.contents, { ...book, quantity: "4" })).statusCode).toBe(303);
      expect((await look(browser, orderPath)).html).toMatch(/data-count="4"/);
    });

    it("the order page of a signed-in browser follows its session: signing out everywhere", async () => {
      const [one, two] = await twoShops();
      const browser = await signedUp(one.app, one.database.db, { email: "besteld@example.nl", name: "Bas" });
      expect((await placeOrder(browser, annasAddress)).statusCode).toBe(303);
      const { id } = await one.database.db.selectFrom("orders").select("id").executeTakeFirstOrThrow();
      await orderLifecycleRepository(one.database.db).applyOrderEvent(
        Number(id),
        { type: "payment_paid", paymentId: "tp_signed_in_order" },
        new Date(),
      );
      const orderPath = `/bestelling/${orderNumber(Number(id))}`;
      const first = await lookTillKept(browser, orderPath);
      expect(first.text).toContain("Betaald");
      expect(first.html).not.toContain("Bewaar je gegevens");

      const device = elsewhere(two, browser);
      await device.get(accountPaths.nl.account);
      expect((await device.form(accountPaths.nl.everywhere, {})).statusCode).toBe(303);
      // The account's order, to a browser no longer signed in to it: the kept page is gone, and so is the order.
      const after = await look(browser, orderPath);
      expect(after.status).toBe(404);
      expect(after.text).not.toContain("Betaald");
    });

    it("the address step of a signed-in browser follows its account: an address added, and signing out everywhere", async () => {
      const [one, two] = await twoShops();
      const browser = await signedUp(one.app, one.database.db, { email: "kept@example.nl", name: "Kees" });
      await readyForTheOverview(one, browser);
      const first = await lookTillKept(browser, paths.address);
      expect(first.text).toContain("Je adressen");

      // The same account on another device, answered by the other instance.
      const device = new BrowserSession(two.app);
      device.adopt(browser);
      await device.get(accountPaths.nl.addresses);
      const added = await device.form(accountPaths.nl.addresses, {
        ...annasAddress,
        name: "Oma Bakker",
        street: "Laan 9",
      });
      expect(added.statusCode).toBe(303);
      expect((await look(browser, paths.address)).text).toContain("Oma Bakker Laan 9");

      await device.get("/account");
      expect((await device.form("/account/overal-uitloggen", {})).statusCode).toBe(303);
      const signedOut = await look(browser, paths.address);
      expect(signedOut.text).not.toContain("Je adressen");
      expect(signedOut.text).not.toContain("Oma Bakker");
    });

    it("the subscription page shows a photo uploaded through the other instance", async () => {
      const [one, two] = await twoShops();
      const browser = new BrowserSession(one.app);
      expect((await uploadPhoto(browser, "strand.jpg")).statusCode).toBeLessThan(300);
      const first = await lookTillKept(browser, "/abonnement");
      expect(first.html).toContain("strand.jpg");

      expect((await uploadPhoto(elsewhere(two, browser), "bergen.jpg")).statusCode).toBeLessThan(300);
      const after = await look(browser, "/abonnement");
      expect(after.html).toContain("strand.jpg");
      expect(after.html).toContain("bergen.jpg");
    });

    it("the subscription page of a signed-in browser follows its session: signing out everywhere", async () => {
      const [one, two] = await twoShops();
      const browser = await signedUp(one.app, one.database.db, { email: "abo@example.nl", name: "Abel" });
      expect((await uploadPhoto(browser, "strand.jpg")).statusCode).toBeLessThan(300);
      const first = await lookTillKept(browser, "/abonnement");
      expect(first.text).toContain("Je sluit het abonnement af voor abo@example.nl");

      const device = elsewhere(two, browser);
      await device.get("/account");
      expect((await device.form("/account/overal-uitloggen", {})).statusCode).toBe(303);
      const signedOut = await look(browser, "/abonnement");
      expect(signedOut.text).not.toContain("abo@example.nl");
      // The account's photos go with its session: the browser is a new guest.
      expect(signedOut.html).not.toContain("strand.jpg");
    });

    it("the photo book shows a photo added, and the header a cart changed, through the other instance", async () => {
      const [one, two] = await twoShops();
      const browser = new BrowserSession(one.app);
      await browser.get(paths.product);
      expect((await browser.form(paths.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      const started = await startPhotoBook(browser);
      const bookUrl = started.headers.location as string;
      expect(bookUrl).toMatch(/^\/fotoboek-maken\/project\/[\w-]{22}$/);
      await look(browser, bookUrl);
      const first = await lookTillKept(browser, bookUrl);
      expect(first.html).toContain('alt="Pagina 1: strand.jpg"');

      const other = elsewhere(two, browser);
      await other.get(bookUrl);
      const added = await other.post(
        `${bookUrl}/fotos`,
        multipart([
          { name: "_csrf", value: other.token },
          { name: "photos", file: { filename: "bergen.jpg", data: await photos.jpeg() } },
        ]),
      );
      expect(added.statusCode).toBe(303);
      const after = await look(browser, bookUrl);
      expect(after.html).toContain('alt="Pagina 1: strand.jpg"');
      expect(after.html).toContain('alt="Pagina 2: bergen.jpg"');

      expect((await lookTillKept(browser, bookUrl)).html).toMatch(/data-count="1"/);
      await other.get(paths.product);
      expect((await other.form(paths.contents, { ...book, quantity: "2" })).statusCode).toBe(303);
      expect((await look(browser, bookUrl)).html).toMatch(/data-count="3"/);
    });

    it("the account's orders show a status changed through the other instance", async () => {
      const [one, two] = await twoShops();
      const browser = await signedUp(one.app, one.database.db, {
        email: "orders@example.nl",
        name: "Olga",
      });
      expect((await placeOrder(browser, annasAddress)).statusCode).toBe(303);
      const first = await lookTillKept(browser, accountPaths.nl.orders);
      expect(first.text).toContain("Wacht op betaling");

      const { id } = await two.database.db.selectFrom("orders").select("id").executeTakeFirstOrThrow();
      await orderLifecycleRepository(two.database.db).applyOrderEvent(
        Number(id),
        { type: "payment_paid", paymentId: "tp_account_orders" },
        new Date(),
      );
      const after = await look(browser, accountPaths.nl.orders);
      expect(after.text).toContain("Betaald");
      expect(after.text).not.toContain("Wacht op betaling");
    });

    it("the account's pages of a signed-in browser follow the account as it changes on another device", async () => {
      const [one, two] = await twoShops();
      const browser = await signedUp(one.app, one.database.db, { email: "mijn@example.nl", name: "Mira" });
      // The same account signed in on another device, answered by the other instance.
      const device = (await signIn(two.app, "mijn@example.nl")).browser;
      const nl = accountPaths.nl;

      expect((await lookTillKept(browser, nl.addresses)).text).not.toContain("Laan 9");
      await device.get(nl.addresses);
      const added = await device.form(nl.addresses, {
        ...annasAddress,
        name: "Oma Bakker",
        street: "Laan 9",
      });
      expect(added.statusCode).toBe(303);
      expect((await look(browser, nl.addresses)).text).toContain("Laan 9");

      expect((await lookTillKept(browser, nl.subscription)).text).toContain("Je hebt geen fotoabonnement.");
      await device.get("/abonnement");
      expect((await device.form("/abonnement/aanmelden", { plan: "plus", country: "NL" })).statusCode).toBe(
        303,
      );
      const subscribed = await look(browser, nl.subscription);
      expect(subscribed.text).not.toContain("Je hebt geen fotoabonnement.");
      expect(subscribed.text).toContain("Plus");

      expect((await lookTillKept(browser, nl.photos)).html).not.toContain("bergen.jpg");
      expect((await uploadPhoto(device, "bergen.jpg")).statusCode).toBeLessThan(300);
      expect((await look(browser, nl.photos)).html).toContain("bergen.jpg");

      // Signing out everywhere on the device: every kept page of the account is gone at once.
      const pages = [
        nl.account,
        nl.orders,
        nl.photos,
        nl.subscription,
        nl.addresses,
        nl.settings,
        nl.privacy,
      ];
      for (const page of pages) expect((await lookTillKept(browser, page)).status).toBe(200);
      await device.get(nl.account);
      expect((await device.form(nl.everywhere, {})).statusCode).toBe(303);
      for (const page of pages) {
        const res = await browser.get(page, { "accept-encoding": "gzip" });
        expect(res.statusCode, page).toBe(303);
        expect(res.headers.location, page).toMatch(/^\/inloggen\?terug=/);
      }
    });
  },
);

/** A signed-in browser's kept pages end with its session, though nothing was written. */
describe("an account's kept pages at the end of its session", () => {
  it("send the browser to sign in once the session has gone unused too long", async () => {
    let clock = new Date("2026-11-23T10:00:00Z");
    const shop = await testShop({ now: () => clock });
    try {
      const browser = await signedUp(shop.app, shop.database.db, { email: "lang@example.nl" });
      expect((await lookTillKept(browser, accountPaths.nl.settings)).text).toContain("lang@example.nl");
      // A week unused is the idle end (session-rules.ts); the kept page's own minute has not passed.
      clock = new Date("2026-11-30T10:00:01Z");
      const res = await browser.get(accountPaths.nl.settings, { "accept-encoding": "gzip" });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(/^\/inloggen\?terug=/);
    } finally {
      await shop.close();
    }
  });
});

/**
 * Pages everyone sees alike, answered to a shopper with cookies, go to that browser again as
 * kept answers: only while the header's count and the page's part of the day stand.
 */
describe("shared pages sent again to a shopper", () => {
  it("show the cart's new count after a change through another instance", async () => {
    const opened = await testDatabases()[0]?.open();
    if (!opened) throw new Error("no database");
    const shared = { ...opened.database, close: async () => {} };
    const one = await testShop({ database: shared });
    const two = await testShop({ database: shared });
    try {
      const browser = new BrowserSession(one.app);
      await browser.get(paths.product);
      expect((await browser.form(paths.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      const first = await lookTillKept(browser, paths.product);
      expect(first.html).toMatch(/data-count="1"/);

      const other = elsewhere(two, browser);
      await other.get(paths.product);
      expect((await other.form(paths.contents, { ...book, quantity: "2" })).statusCode).toBe(303);
      expect((await look(browser, paths.product)).html).toMatch(/data-count="3"/);
    } finally {
      await one.close();
      await two.close();
      await opened.cleanup();
    }
  });

  it("show the next part of the day's dispatch dates once the cut-off has passed", async () => {
    // Monday 23 November 2026, 14:59 in Amsterdam; the cut-off is 15:00.
    let clock = new Date("2026-11-23T13:59:00Z");
    const shop = await testShop({ now: () => clock });
    try {
      const browser = new BrowserSession(shop.app);
      await browser.get(paths.product);
      expect((await browser.form(paths.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      const before = await lookTillKept(browser, paths.product);
      expect(before.text).toContain("Bij bestelling vandaag vóór 15:00 uur.");
      clock = new Date("2026-11-23T14:01:00Z");
      const after = await look(browser, paths.product);
      expect(after.text).not.toContain("Bij bestelling vandaag vóór 15:00 uur.");
      expect(after.text).toContain("Bij bestelling morgen vóór 15:00 uur.");
    } finally {
      await shop.close();
    }
  });
});
