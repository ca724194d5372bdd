import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { orderNumber } from "../../../server/domain/order-number.ts";
import {
  accountPaths,
  annasAddress,
  mainText,
  password,
  placeOrder,
  signedUp,
  signIn,
} from "../../support/accounts.ts";
import { type TestShop, testShop } from "../../support/app.ts";
import { BrowserSession } from "../../support/browser-session.ts";
import { testDatabases } from "../../support/databases.ts";
import { orderPageLink } from "../../support/orders.ts";
import { startPhotoBook } from "../../support/photos.ts";
import { signupLinkPath } from "../../support/subscriptions.ts";

/**
 * One browser, one person (ADR 0089): a computer several people use, or a device whose
 * session ended elsewhere, never shows one person's cart, address, photos or orders to the
 * next, and signing in never makes one person's things another's.
 */

const nl = accountPaths.nl;
const newPassword = "Winter in de bergen 2027?";
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const productPage = "/assortiment/fotoboeken/exclusief-fotoboek";
const pathOf = (location: unknown) => {
  const url = new URL(String(location), "http://localhost");
  return `${url.pathname}${url.search}`;
};

describe.each(testDatabases())("one browser, one person, on $name", (target) => {
  let shop: TestShop;
  let cleanup: () => Promise<void>;
  let clock = new Date("2026-11-28T10:00:00Z");

  beforeEach(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    clock = new Date("2026-11-28T10:00:00Z");
    shop = await testShop({
      database: opened.database,
      env: { SIGNUP_RATE_LIMIT: "1000", SESSION_IDLE_HOURS: "2" },
      now: () => clock,
      sleep: async () => {},
    });
  });
  afterEach(async () => {
    await shop.app.close();
    await cleanup();
  });

  const db = () => shop.database.db;
  const accountOf = (email: string) =>
    db().selectFrom("accounts").selectAll().where("email_key", "=", email).executeTakeFirstOrThrow();
  const ordersTo = (email: string) =>
    db().selectFrom("orders").select(["id", "account_id"]).where("email", "=", email).execute();
  const add = async (browser: BrowserSession) => {
    await browser.get(productPage);
    expect((await browser.form("/winkelwagen/inhoud", { ...book, quantity: "1" })).statusCode).toBe(303);
  };
  /** The account's order numbers as "Mijn bestellingen" and the data export show them. */
  const ordersShown = async (browser: BrowserSession) => {
    const page = await browser.get(nl.orders);
    expect(page.statusCode).toBe(200);
    const exported = await browser.get(nl.export);
    expect(exported.statusCode).toBe(200);
    const data = JSON.parse(exported.body) as {
      orders: Array<{ number: string; address: { name: string } }>;
    };
    return { page: mainText(page), exported: data.orders };
  };

  describe("a session that ends on one device ends the account on the other one's next request", () => {
    const xAddress = { ...annasAddress, name: "Xander Smit", street: "Havenweg 7", phone: "0612345678" };

    /**
     * Device B signed in to account X, with an order, a photo book and a cart with an address
     * left in it; then the session ends by `ending`. Answers B and what it held.
     */
    const deviceBOfX = async (email: string) => {
      const a = await signedUp(shop.app, db(), { email, name: "Xander Smit" });
      const b = (await signIn(shop.app, email)).browser;
      expect((await placeOrder(b, { ...xAddress, email })).statusCode).toBe(303);
      const [order] = await ordersTo(email);
      expect(order?.account_id).toBe((await accountOf(email)).id);
      const book = await startPhotoBook(b);
      expect(book.statusCode).toBe(303);
      await add(b);
      expect((await b.form("/winkelwagen/adres", { ...xAddress, email })).statusCode).toBe(303);
      return {
        a,
        b,
        orderPath: `/bestelling/${orderNumber(Number(order?.id))}`,
        bookPath: pathOf(book.headers.location),
      };
    };

    /** What B sees now: none of it, an empty guest cart that works as one, and the cookies gone. */
    const expectNothingOfX = async (
      email: string,
      b: BrowserSession,
      held: { orderPath: string; bookPath: string },
    ) => {
      const first = await b.get("/winkelwagen/inhoud");
      expect(first.statusCode).toBe(200);
      const cleared = (name: string) => first.cookies.find((c) => c.name === name);
      for (const name of ["session", "cart", "shopper"]) expect(cleared(name)?.value ?? "", name).toBe("");
      expect(mainText(first)).not.toContain("Exclusief fotoboek");
      const address = await b.get("/winkelwagen/adres");
      expect(address.body).not.toContain("0612345678");
      expect(address.body).not.toContain("Havenweg 7");
      expect((await b.get(held.orderPath)).statusCode).toBe(404);
      const book = await b.get(held.bookPath);
      expect(book.statusCode).not.toBe(200);
      expect(book.body).not.toContain("strand.jpg");
      // The guest cart B gets from here is a new one, never the account's.
      await add(b);
      const account = await accountOf(email);
      const carts = await db().selectFrom("carts").select("id").execute();
      expect(carts.length).toBeGreaterThan(1);
      expect(mainText(await b.get("/winkelwagen/inhoud"))).toContain("Exclusief fotoboek");
      const lines = await db()
        .selectFrom("cart_lines")
        .select("cart_id")
        .where("cart_id", "=", account.cart_id ?? "")
        .execute();
      expect(lines).toHaveLength(1);
    };

    it("after signing out everywhere on device A", async () => {
      const email = "x1@example.nl";
      const { a, b, ...held } = await deviceBOfX(email);
      expect((await a.form(nl.everywhere, {})).statusCode).toBe(303);
      await expectNothingOfX(email, b, held);
    });

    it("after a password change on device A", async () => {
      const email = "x2@example.nl";
      const { a, b, ...held } = await deviceBOfX(email);
      await a.get(nl.settings);
      const changed = await a.form(nl.password, {
        currentPassword: password,
        password: newPassword,
        passwordConfirm: newPassword,
      });
      expect(changed.statusCode).toBe(303);
      await expectNothingOfX(email, b, held);
    });

    it("after a password reset", async () => {
      const email = "x3@example.nl";
      const { b, ...held } = await deviceBOfX(email);
      const elsewhere = new BrowserSession(shop.app);
      await elsewhere.get(nl.forgotten);
      await elsewhere.form(nl.forgotten, { email });
      const link = (await signupLinkPath(db(), email, "password-reset")) as string;
      await elsewhere.get(link);
      const reset = await elsewhere.form(link, { password: newPassword, passwordConfirm: newPassword });
      expect(reset.statusCode).toBe(303);
      await expectNothingOfX(email, b, held);
    });

    it("after the session expired", async () => {
      const email = "x4@example.nl";
      const { b, ...held } = await deviceBOfX(email);
      clock = new Date(clock.getTime() + 3 * 3_600_000);
      await expectNothingOfX(email, b, held);
    });
  });

  it("Mallory signing in where Gerda's session ended takes nothing of Gerda's, and neither opens the other's orders", async () => {
    const shared = await signedUp(shop.app, db(), { email: "gerda@example.nl", name: "Gerda Bakker" });
    await placeOrder(shared, { ...annasAddress, name: "Gerda Bakker", email: "gerda@example.nl" });
    await add(shared);
    // Gerda signs out everywhere from her phone: the shared computer keeps its cookies.
    const phone = (await signIn(shop.app, "gerda@example.nl")).browser;
    await phone.form(nl.everywhere, {});
    await signedUp(shop.app, db(), { email: "mallory@example.nl", name: "Mallory Jansen" });

    const { res } = await signIn(shop.app, "mallory@example.nl", password, { browser: shared });
    expect(res.statusCode).toBe(303);
    await placeOrder(shared, { ...annasAddress, name: "Mallory Jansen", email: "mallory@example.nl" });

    const gerda = await accountOf("gerda@example.nl");
    const mallory = await accountOf("mallory@example.nl");
    expect(gerda.cart_id).not.toBeNull();
    expect(mallory.cart_id).not.toBe(gerda.cart_id);
    const [gerdasOrder] = await ordersTo("gerda@example.nl");
    const [mallorysOrder] = await ordersTo("mallory@example.nl");
    expect(gerdasOrder?.account_id).toBe(gerda.id);
    expect(mallorysOrder?.account_id).toBe(mallory.id);
    const pageOf = (order: { id: number } | undefined) => `/bestelling/${orderNumber(Number(order?.id))}`;

    expect((await shared.get(pageOf(gerdasOrder))).statusCode).toBe(404);
    const gerdasLaptop = (await signIn(shop.app, "gerda@example.nl")).browser;
    expect((await gerdasLaptop.get(pageOf(gerdasOrder))).statusCode).toBe(200);
    expect((await gerdasLaptop.get(pageOf(mallorysOrder))).statusCode).toBe(404);
    expect((await ordersShown(gerdasLaptop)).page).not.toContain(orderNumber(Number(mallorysOrder?.id)));
    expect((await ordersShown(shared)).page).not.toContain(orderNumber(Number(gerdasOrder?.id)));
  });

  describe("a guest's order on a shared computer", () => {
    /** Gerda orders and pays as a guest on the shared computer; Mallory then signs in there. */
    const gerdaOrdersThenMallorySignsIn = async () => {
      await signedUp(shop.app, db(), { email: "mallory@example.nl", name: "Mallory Jansen" });
      const shared = new BrowserSession(shop.app);
      const placed = await placeOrder(shared, {
        ...annasAddress,
        name: "Gerda Bakker",
        street: "Molenweg 9",
        email: "gerda@example.nl",
      });
      const testPage = pathOf(placed.headers.location);
      await shared.get(testPage);
      const paid = await shared.form(testPage, { outcome: "paid" });
      expect(paid.statusCode).toBe(303);
      const back = await shared.get(pathOf(paid.headers.location));
      expect(back.statusCode).toBe(200);
      const [order] = await ordersTo("gerda@example.nl");
      const id = Number(order?.id);
      const { res } = await signIn(shop.app, "mallory@example.nl", password, { browser: shared });
      expect(res.statusCode).toBe(303);
      return { shared, id, number: orderNumber(id), returnedTo: pathOf(paid.headers.location) };
    };

    it("is not Mallory's, and opens by the secret link from its mail, never by the cart cookie", async () => {
      const { shared, id, number, returnedTo } = await gerdaOrdersThenMallorySignsIn();
      expect(returnedTo).toBe(orderPageLink(id));
      expect((await ordersTo("gerda@example.nl"))[0]?.account_id).toBeNull();
      const shown = await ordersShown(shared);
      expect(shown.page).not.toContain(number);
      expect(shown.exported.map((o) => o.number)).not.toContain(number);
      expect(JSON.stringify(shown.exported)).not.toContain("Gerda");

      const mail = await db()
        .selectFrom("outbox")
        .select("text_body")
        .where("kind", "=", "order-confirmation")
        .where("to_address", "=", "gerda@example.nl")
        .executeTakeFirstOrThrow();
      const link = /https?:\/\/\S+/.exec(mail.text_body.slice(mail.text_body.indexOf(number)))?.[0] ?? "";
      expect(pathOf(link)).toBe(orderPageLink(id));
      const gerdasPhone = new BrowserSession(shop.app);
      const page = await gerdasPhone.get(pathOf(link));
      expect(page.statusCode).toBe(200);
      expect(mainText(page)).toContain("Molenweg 9");
      // Without the secret, neither the browser that ordered nor anyone else opens it.
      const guest = new BrowserSession(shop.app);
      await placeOrder(guest, { ...annasAddress, email: "guest@example.nl" });
      const [guestOrder] = await ordersTo("guest@example.nl");
      expect((await guest.get(`/bestelling/${orderNumber(Number(guestOrder?.id))}`)).statusCode).toBe(404);
      expect((await shared.get(`/bestelling/${number}`)).statusCode).toBe(404);
      expect((await shared.get(`/bestelling/${number}?code=${"x".repeat(43)}`)).statusCode).toBe(404);
    });

    it("joins Mallory's account only once the link mailed to the order's address is used while she is signed in", async () => {
      const { shared, id, number } = await gerdaOrdersThenMallorySignsIn();
      const page = await shared.get(orderPageLink(id));
      expect(mainText(page)).toContain("Deze bestelling staat niet in je account.");
      const claimPath = `/bestelling/${number}/aan-account-toevoegen?${orderPageLink(id).split("?")[1]}`;
      const asked = await shared.form(claimPath, {});
      expect(asked.statusCode).toBe(303);
      expect(mainText(await shared.follow(asked))).toContain(
        "We hebben een link gemaild naar gerda@example.nl.",
      );
      // Asking adds nothing yet, and mails nothing to Mallory.
      expect((await ordersShown(shared)).page).not.toContain(number);
      const toMallory = await db()
        .selectFrom("outbox")
        .select("kind")
        .where("to_address", "=", "mallory@example.nl")
        .where("kind", "=", "order-claim")
        .execute();
      expect(toMallory).toEqual([]);

      const link = (await signupLinkPath(db(), "gerda@example.nl", "order-claim")) as string;
      expect(link).toMatch(/^\/account\/bestelling-toevoegen\/[\w-]{43}$/);
      // Gerda opening it where she is not signed in to Mallory's account adds nothing.
      const gerdasPhone = new BrowserSession(shop.app);
      expect((await gerdasPhone.get(link)).statusCode).toBe(303);
      expect((await ordersTo("gerda@example.nl"))[0]?.account_id).toBeNull();

      const confirm = await shared.get(link);
      expect(mainText(confirm)).toContain(`Bestelling ${number} komt in het account mallory@example.nl.`);
      const added = await shared.form(link, {});
      expect(added.statusCode).toBe(303);
      expect(mainText(await shared.follow(added))).toContain(`Bestelling ${number} staat nu in je account.`);
      const shown = await ordersShown(shared);
      expect(shown.page).toContain(number);
      expect(shown.exported.map((o) => o.number)).toContain(number);
      // Once used, the link adds nothing again.
      expect((await shared.form(link, {})).statusCode).toBe(410);
    });
  });
});
