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
import type { BrowserSession } from "../../support/browser-session.ts";
import { BrowserSession as Browser } from "../../support/browser-session.ts";
import { testDatabases } from "../../support/databases.ts";
import { orderPageLink } from "../../support/orders.ts";
import { multipart, photos, startPhotoBook } from "../../support/photos.ts";
import { signupLinkPath } from "../../support/subscriptions.ts";

const nl = accountPaths.nl;
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const canvas = { product: "canvas", orientation: "square", size: "50x50" };
const productPage = "/assortiment/fotoboeken/exclusief-fotoboek";

describe.each(testDatabases())("what a browser brings to its account at sign-in, on $name", (target) => {
  let shop: TestShop;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    shop = await testShop({
      database: opened.database,
      env: { SIGNUP_RATE_LIMIT: "1000", CART_LINE_LIMIT: "2" },
      sleep: async () => {},
    });
  });
  afterEach(async () => {
    await shop.app.close();
    await cleanup();
  });

  const db = () => shop.database.db;
  const add = async (browser: BrowserSession, item: typeof book, quantity: number) => {
    await browser.get(productPage);
    const res = await browser.form("/winkelwagen/inhoud", { ...item, quantity: String(quantity) });
    expect(res.statusCode).toBe(303);
  };
  /** The lines of an account's cart, straight from the database. */
  const accountLines = async (email: string) => {
    const account = await db()
      .selectFrom("accounts")
      .select("cart_id")
      .where("email_key", "=", email)
      .executeTakeFirstOrThrow();
    return (
      await db()
        .selectFrom("cart_lines")
        .select(["product_id", "quantity"])
        .where("cart_id", "=", account.cart_id ?? "")
        .orderBy("product_id")
        .execute()
    ).map((l) => `${l.product_id} × ${Number(l.quantity)}`);
  };

  it("the carts come together: a line both have is summed, a new one added, and it says so", async () => {
    const phone = await signedUp(shop.app, db(), { email: "anna@example.nl" });
    await add(phone, book, 2);
    const laptop = new Browser(shop.app);
    await add(laptop, book, 3);
    await add(laptop, canvas, 1);

    const { res } = await signIn(shop.app, "anna@example.nl", password, { browser: laptop });
    expect(res.statusCode).toBe(303);
    expect(await accountLines("anna@example.nl")).toEqual(["canvas × 1", "exclusive-photobook × 5"]);
    expect(mainText(await laptop.follow(res))).toContain(
      "Wat in je winkelwagen lag, staat nu in de winkelwagen van je account.",
    );
    // Both devices show the one cart.
    expect((await phone.get("/")).body).toContain('data-count="6"');
    expect((await laptop.get("/")).body).toContain('data-count="6"');
  });

  it("limits are kept, and what did not fit is said: a line at most 99, a cart at most its lines", async () => {
    const phone = await signedUp(shop.app, db(), { email: "bram@example.nl" });
    await add(phone, book, 60);
    await add(phone, canvas, 1);
    const laptop = new Browser(shop.app);
    await add(laptop, book, 60);
    await add(laptop, { product: "square-prints", orientation: "square", size: "10x10" }, 5);

    const { res } = await signIn(shop.app, "bram@example.nl", password, { browser: laptop });
    const text = mainText(await laptop.follow(res));
    expect(await accountLines("bram@example.nl")).toEqual(["canvas × 1", "exclusive-photobook × 99"]);
    expect(text).toContain("Bij 1 artikel kwam het aantal boven de 99: er staan er nu 99.");
    expect(text).toContain("1 artikel paste niet meer in je winkelwagen, die hoogstens 2 regels heeft.");
  });

  it("two tabs signing in at once add the browser's cart once", async () => {
    const phone = await signedUp(shop.app, db(), { email: "carla@example.nl" });
    await add(phone, book, 1);
    const laptop = new Browser(shop.app);
    await add(laptop, book, 2);
    await laptop.get(nl.signIn);
    const results = await Promise.all([
      laptop.form(nl.signIn, { email: "carla@example.nl", password }),
      laptop.form(nl.signIn, { email: "carla@example.nl", password }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([303, 303]);
    expect(await accountLines("carla@example.nl")).toEqual(["exclusive-photobook × 3"]);
  });

  // One browser may serve several people (ADR 0089): what a guest made in it is not the account's
  // that signs in there next. The account's photos stay on every device; the guest's stay the guest's.
  it("photos and projects made in the browser before signing in stay the guest's, and the account's own stay on every device", async () => {
    await signedUp(shop.app, db(), { email: "daan@example.nl" });
    const laptop = new Browser(shop.app);
    await laptop.get("/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30");
    // A photo book started without JavaScript: the start form with its photo.
    const started = await laptop.post(
      "/fotoboek-maken",
      multipart([
        { name: "_csrf", value: laptop.token },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:21x30" },
        { name: "photos", file: { filename: "strand.jpg", data: await photos.jpeg(), type: "image/jpeg" } },
      ]),
    );
    expect(started.statusCode, started.body.slice(0, 300)).toBe(303);
    const guestOwners = await db().selectFrom("uploads").select("owner_id").execute();
    await signIn(shop.app, "daan@example.nl", password, { browser: laptop });
    expect(mainText(await laptop.get(nl.photos))).not.toContain("strand.jpg");
    // Uploaded while signed in: the account's, on every device.
    expect((await startPhotoBook(laptop, "bergen.jpg")).statusCode).toBe(303);

    const phone = (await signIn(shop.app, "daan@example.nl")).browser;
    const page = await phone.get(nl.photos);
    expect(page.statusCode).toBe(200);
    expect(mainText(page)).toContain("bergen.jpg");
    expect(mainText(page)).not.toContain("strand.jpg");
    const account = await db()
      .selectFrom("accounts")
      .select("owner_id")
      .where("email_key", "=", "daan@example.nl")
      .executeTakeFirstOrThrow();
    const owners = await db().selectFrom("uploads").select(["owner_id", "original_name"]).execute();
    expect(guestOwners.map((o) => o.owner_id)).not.toContain(account.owner_id);
    expect(owners.filter((o) => o.owner_id === account.owner_id)).toHaveLength(1);
  });
});

describe("Bewaar je gegevens, on an order's page", () => {
  it("turns the order's name and address into an account once the mailed link is used", async () => {
    const shop = await testShop({ env: { SIGNUP_RATE_LIMIT: "1000" }, sleep: async () => {} });
    try {
      const db = shop.database.db;
      const browser = new Browser(shop.app);
      await placeOrder(browser, {
        ...annasAddress,
        name: "Eva de Wit",
        street: "Kerkstraat 3",
        email: "eva@example.nl",
      });
      const [order] = await db.selectFrom("orders").select("id").execute();
      const number = orderNumber(Number(order?.id));
      const orderPage = orderPageLink(Number(order?.id));
      const saveDetails = `/bestelling/${number}/gegevens-bewaren?${orderPage.split("?")[1]}`;
      const page = await browser.get(orderPage);
      expect(mainText(page)).toContain("Bewaar je gegevens");
      expect(mainText(page)).toContain("Maak een account met eva@example.nl");

      const weak = await browser.form(saveDetails, {
        password: "kort",
        passwordConfirm: "kort",
      });
      expect(weak.statusCode).toBe(422);
      expect(mainText(weak)).toContain("Bewaar je gegevens");
      const asked = await browser.form(saveDetails, {
        password,
        passwordConfirm: password,
      });
      expect(asked.headers.location).toBe(accountPaths.nl.mailSent);

      const link = (await signupLinkPath(db, "eva@example.nl", "account-confirm")) as string;
      const confirm = await browser.get(link);
      expect(mainText(confirm)).toContain(`Je bestelling ${number} en het adres ervan komen in je account.`);
      await browser.form(link, {});
      const orders = await browser.get(accountPaths.nl.orders);
      expect(mainText(orders)).toContain(number);
      const addresses = await browser.get(accountPaths.nl.addresses);
      expect(mainText(addresses)).toContain("Kerkstraat 3");
      // Signed in, the order's page offers no second account.
      expect(mainText(await browser.get(orderPage))).not.toContain("Bewaar je gegevens");
    } finally {
      await shop.close();
    }
  });
});
