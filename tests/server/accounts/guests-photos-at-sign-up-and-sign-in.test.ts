import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { accountPaths, mainText, password, signedUp, signIn } from "../../support/accounts.ts";
import { type TestShop, testShop } from "../../support/app.ts";
import { BrowserSession } from "../../support/browser-session.ts";
import { testDatabases } from "../../support/databases.ts";
import { startPhotoBook, uploadPhoto } from "../../support/photos.ts";
import { textOf } from "../../support/shopper.ts";
import { signupLinkPath } from "../../support/subscriptions.ts";

/**
 * A guest's photos on a computer several guests use (ADR 0094): an account takes only what
 * was made with its own sign-up, and the photo books of the cart lines it takes; the rest
 * stays the guest's. Pages kept for the guest's cookies are not sent once their photos
 * moved; the browser's cart and shopper ids change at sign-in and sign-out.
 */

const nl = accountPaths.nl;
const pathOf = (location: unknown) => {
  const url = new URL(String(location), "http://localhost");
  return `${url.pathname}${url.search}`;
};

/** A page as a browser asks for it (gzip, so a kept answer may be sent), read. */
async function look(browser: BrowserSession, url: string) {
  const res = await browser.get(url, { "accept-encoding": "gzip" });
  const html =
    res.headers["content-encoding"] === "gzip" ? gunzipSync(res.rawPayload).toString("utf8") : res.body;
  return { status: res.statusCode, bytes: res.rawPayload, html, text: textOf(html) };
}

/** A page looked at until it comes as kept: the same bytes twice. */
async function lookTillKept(browser: BrowserSession, url: string) {
  await look(browser, url);
  const first = await look(browser, url);
  const again = await look(browser, url);
  expect(again.bytes.equals(first.bytes)).toBe(true);
  return first;
}

/** A copy of a browser's cookies as they are now: what someone else at that computer still sends. */
function copyOf(app: TestShop["app"], browser: BrowserSession): BrowserSession {
  const copy = new BrowserSession(app);
  copy.adopt(browser);
  return copy;
}

describe.each(testDatabases({ sqliteFile: true }))(
  "a guest's photos when someone signs up or in, on $name",
  (target) => {
    const shops: TestShop[] = [];
    let cleanup: (() => Promise<void>) | undefined;
    afterEach(async () => {
      for (const s of shops.splice(0)) await s.app.close();
      await cleanup?.();
      cleanup = undefined;
    });

    /** Two instances of the shop on one database: the second never kept anything, so it renders afresh. */
    async function twoShops(): Promise<[TestShop, TestShop]> {
      const opened = await target.open();
      cleanup = opened.cleanup;
      for (let i = 0; i < 2; i++) {
        shops.push(
          await testShop({
            database: { ...opened.database, close: async () => {} },
            env: { SIGNUP_RATE_LIMIT: "1000" },
            sleep: async () => {},
          }),
        );
      }
      return [shops[0] as TestShop, shops[1] as TestShop];
    }

    /** The id a signed cookie of this browser holds now, or undefined. */
    const idIn = (shop: TestShop, browser: BrowserSession, name: string) => {
      const raw = browser
        .cookieHeader()
        .split("; ")
        .find((c) => c.startsWith(`${name}=`))
        ?.slice(name.length + 1);
      if (!raw) return undefined;
      const unsigned = shop.app.unsignCookie(decodeURIComponent(raw));
      return unsigned.valid ? (unsigned.value ?? undefined) : undefined;
    };

    const accountRow = (shop: TestShop, email: string) =>
      shop.database.db
        .selectFrom("accounts")
        .selectAll()
        .where("email_key", "=", email)
        .executeTakeFirstOrThrow();
    const ownersOf = async (shop: TestShop) =>
      Object.fromEntries(
        (await shop.database.db.selectFrom("uploads").select(["original_name", "owner_id"]).execute()).map(
          (u) => [u.original_name, u.owner_id],
        ),
      );

    /** A book with one photo put in the cart from its page, as the page's form does it. */
    async function bookInCart(browser: BrowserSession, filename: string) {
      const started = await startPhotoBook(browser, filename);
      expect(started.statusCode).toBe(303);
      const bookPath = pathOf(started.headers.location);
      const page = await browser.get(bookPath);
      const project = /name="project" value="([\w-]{22})"/.exec(page.body)?.[1] ?? "";
      const added = await browser.form("/winkelwagen/inhoud", {
        product: "exclusive-photobook",
        orientation: "portrait",
        size: "21x30",
        project,
        quantity: "1",
      });
      expect(added.statusCode).toBe(303);
      return { bookPath, project };
    }

    describe("a new account takes only what was made with its own sign-up", () => {
      it("Bram signs up where Anna, a guest, uploaded before: Bram's account never shows Anna's photos, his own come along", async () => {
        const [shop] = await twoShops();
        const shared = new BrowserSession(shop.app);
        // Anna, a guest, starts a book and leaves.
        expect((await startPhotoBook(shared, "anna-strand.jpg")).statusCode).toBe(303);
        const annasId = idIn(shop, shared, "shopper");
        // Bram asks for an account there, and starts a book while the mail is on its way.
        await shared.get(nl.create);
        const asked = await shared.form(nl.create, {
          name: "Bram Visser",
          email: "bram@example.nl",
          password,
          passwordConfirm: password,
        });
        expect(asked.statusCode).toBe(303);
        const signupId = idIn(shop, shared, "shopper");
        expect(signupId).not.toBe(annasId);
        expect((await startPhotoBook(shared, "bram-bergen.jpg")).statusCode).toBe(303);
        const link = (await signupLinkPath(shop.database.db, "bram@example.nl", "account-confirm")) as string;
        await shared.get(link);
        expect((await shared.form(link, {})).statusCode).toBe(303);

        const bram = await accountRow(shop, "bram@example.nl");
        expect([annasId, signupId]).not.toContain(bram.owner_id);
        expect(idIn(shop, shared, "shopper")).toBe(bram.owner_id);
        for (const browser of [shared, (await signIn(shop.app, "bram@example.nl")).browser]) {
          const photos = mainText(await browser.get(nl.photos));
          expect(photos).toContain("bram-bergen.jpg");
          expect(photos).not.toContain("anna-strand.jpg");
        }
        expect(await ownersOf(shop)).toEqual({
          "anna-strand.jpg": annasId,
          "bram-bergen.jpg": bram.owner_id,
        });
      });

      it("a subscription signed up for as a guest takes what was made under its sign-up, and nothing of the guest before", async () => {
        const [shop] = await twoShops();
        const shared = new BrowserSession(shop.app);
        expect((await uploadPhoto(shared, "anna-strand.jpg")).statusCode).toBeLessThan(300);
        const annasId = idIn(shop, shared, "shopper");
        await shared.get("/abonnement");
        const asked = await shared.form("/abonnement/aanmelden", {
          plan: "plus",
          country: "NL",
          name: "Carla Jansen",
          email: "carla@example.nl",
          password,
          passwordConfirm: password,
        });
        expect(asked.statusCode).toBe(303);
        expect(idIn(shop, shared, "shopper")).not.toBe(annasId);
        expect((await uploadPhoto(shared, "carla-bos.jpg")).statusCode).toBeLessThan(300);
        const link = (await signupLinkPath(shop.database.db, "carla@example.nl")) as string;
        // Carla uses the link on her phone.
        const phone = new BrowserSession(shop.app);
        await phone.get(link);
        const confirmed = await phone.form(link, {});
        expect(confirmed.statusCode).toBe(303);

        const carla = await accountRow(shop, "carla@example.nl");
        const subscription = await shop.database.db
          .selectFrom("subscriptions")
          .select("owner_id")
          .where("account_id", "=", carla.id)
          .executeTakeFirstOrThrow();
        expect(subscription.owner_id).toBe(carla.owner_id);
        const photos = mainText(await phone.get(nl.photos));
        expect(photos).toContain("carla-bos.jpg");
        expect(photos).not.toContain("anna-strand.jpg");
        expect((await ownersOf(shop))["anna-strand.jpg"]).toBe(annasId);
        // The computer, still a guest, keeps Anna's photos as they were and nothing of Carla's account.
        const guestPage = mainText(await shared.get("/abonnement"));
        expect(guestPage).not.toContain("carla-bos.jpg");
      });
    });

    it("a signed-in browser that asks for another account keeps its account's id, and the new account takes none of its photos", async () => {
      const [shop] = await twoShops();
      const browser = await signedUp(shop.app, shop.database.db, { email: "hans@example.nl", name: "Hans" });
      expect((await startPhotoBook(browser, "hans.jpg")).statusCode).toBe(303);
      const hans = await accountRow(shop, "hans@example.nl");
      const asked = await browser.form(nl.create, {
        name: "Iris",
        email: "iris@example.nl",
        password,
        passwordConfirm: password,
      });
      expect(asked.statusCode).toBe(303);
      expect(idIn(shop, browser, "shopper")).toBe(hans.owner_id);
      const link = (await signupLinkPath(shop.database.db, "iris@example.nl", "account-confirm")) as string;
      const phone = new BrowserSession(shop.app);
      await phone.get(link);
      expect((await phone.form(link, {})).statusCode).toBe(303);
      expect(await ownersOf(shop)).toEqual({ "hans.jpg": hans.owner_id });
      expect(mainText(await browser.get(nl.photos))).toContain("hans.jpg");
    });

    it("a guest's photo book in the cart goes with its line into the account at sign-in; the guest's other photos stay", async () => {
      const [shop] = await twoShops();
      await signedUp(shop.app, shop.database.db, { email: "daan@example.nl", name: "Daan" });
      const laptop = new BrowserSession(shop.app);
      expect((await uploadPhoto(laptop, "los.jpg")).statusCode).toBeLessThan(300);
      const guestId = idIn(shop, laptop, "shopper");
      const { bookPath } = await bookInCart(laptop, "strand.jpg");

      expect((await signIn(shop.app, "daan@example.nl", password, { browser: laptop })).res.statusCode).toBe(
        303,
      );
      const cart = await laptop.get("/winkelwagen/inhoud");
      expect(mainText(cart)).toContain("Fotoboekproject met 1 foto");
      const lineLink = /href="(\/fotoboek-maken\/project\/[\w-]{22})"/.exec(cart.body)?.[1];
      expect(lineLink).toBe(bookPath);
      const book = await laptop.get(bookPath);
      expect(book.statusCode).toBe(200);
      expect(book.body).toContain("strand.jpg");
      // On another device the account has the book too; the loose photo stayed the guest's.
      const phone = (await signIn(shop.app, "daan@example.nl")).browser;
      expect((await phone.get(bookPath)).body).toContain("strand.jpg");
      const photos = mainText(await phone.get(nl.photos));
      expect(photos).toContain("strand.jpg");
      expect(photos).not.toContain("los.jpg");
      const daan = await accountRow(shop, "daan@example.nl");
      expect(await ownersOf(shop)).toEqual({ "los.jpg": guestId, "strand.jpg": daan.owner_id });
    });

    describe("a guest's kept book page is not sent once its photos went to an account", () => {
      it("after signing in with the book in the cart: the page kept for the guest's cookies answers as a fresh render does", async () => {
        const [one, two] = await twoShops();
        await signedUp(one.app, one.database.db, { email: "eva@example.nl", name: "Eva" });
        const laptop = new BrowserSession(one.app);
        const { bookPath } = await bookInCart(laptop, "strand.jpg");
        const kept = await lookTillKept(laptop, bookPath);
        expect(kept.status).toBe(200);
        expect(kept.html).toContain("strand.jpg");
        const guestCookies = copyOf(one.app, laptop);
        const fresh = copyOf(two.app, laptop);

        expect((await signIn(one.app, "eva@example.nl", password, { browser: laptop })).res.statusCode).toBe(
          303,
        );
        const again = await look(guestCookies, bookPath);
        const rendered = await look(fresh, bookPath);
        expect(again.status).toBe(rendered.status);
        expect(again.status).toBe(404);
        expect(again.html).not.toContain("strand.jpg");
      });

      it("after the sign-up's link was used: the page kept for the browser's guest cookies answers as a fresh render does", async () => {
        const [one, two] = await twoShops();
        const laptop = new BrowserSession(one.app);
        await laptop.get(nl.create);
        await laptop.form(nl.create, {
          name: "Fenna",
          email: "fenna@example.nl",
          password,
          passwordConfirm: password,
        });
        const started = await startPhotoBook(laptop, "strand.jpg");
        const bookPath = pathOf(started.headers.location);
        const kept = await lookTillKept(laptop, bookPath);
        expect(kept.status).toBe(200);
        const guestCookies = copyOf(one.app, laptop);
        const fresh = copyOf(two.app, laptop);

        const link = (await signupLinkPath(one.database.db, "fenna@example.nl", "account-confirm")) as string;
        await laptop.get(link);
        expect((await laptop.form(link, {})).statusCode).toBe(303);
        expect((await laptop.get(bookPath)).body).toContain("strand.jpg");

        const again = await look(guestCookies, bookPath);
        const rendered = await look(fresh, bookPath);
        expect(again.status).toBe(rendered.status);
        expect(again.status).toBe(404);
        expect(again.html).not.toContain("strand.jpg");
      });
    });

    it("signing in and out gives the browser other cart and shopper ids each time, never the guest's again", async () => {
      const [shop] = await twoShops();
      const phone = await signedUp(shop.app, shop.database.db, { email: "gijs@example.nl", name: "Gijs" });
      await bookInCart(phone, "account.jpg");
      const gijs = await accountRow(shop, "gijs@example.nl");
      const laptop = new BrowserSession(shop.app);
      await bookInCart(laptop, "gast.jpg");
      const guest = { cart: idIn(shop, laptop, "cart"), shopper: idIn(shop, laptop, "shopper") };
      expect(guest.cart).toBeDefined();
      expect(guest.shopper).toBeDefined();

      expect((await signIn(shop.app, "gijs@example.nl", password, { browser: laptop })).res.statusCode).toBe(
        303,
      );
      const signedIn = { cart: idIn(shop, laptop, "cart"), shopper: idIn(shop, laptop, "shopper") };
      expect(signedIn).toEqual({ cart: gijs.cart_id, shopper: gijs.owner_id });
      expect(signedIn.cart).not.toBe(guest.cart);
      expect(signedIn.shopper).not.toBe(guest.shopper);

      expect((await laptop.form(nl.signOut, {})).statusCode).toBe(303);
      expect(idIn(shop, laptop, "cart")).toBeUndefined();
      expect(idIn(shop, laptop, "shopper")).toBeUndefined();
      await bookInCart(laptop, "volgende.jpg");
      const next = { cart: idIn(shop, laptop, "cart"), shopper: idIn(shop, laptop, "shopper") };
      for (const id of [guest.cart, guest.shopper, gijs.cart_id, gijs.owner_id]) {
        expect([next.cart, next.shopper]).not.toContain(id);
      }
    });
  },
);
