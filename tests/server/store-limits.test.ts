import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { photoProjectRepository } from "../../server/store/photo-project-repository.ts";
import type { Schema } from "../../server/store/schema.ts";
import { uploadRepository } from "../../server/store/upload-repository.ts";
import { uploadLimits } from "../../server/uploads/upload-limits.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { type TestDatabase, testDatabases } from "../support/databases.ts";
import { multipart, type Part, photos } from "../support/photos.ts";
import { textOf } from "../support/shopper.ts";

/**
 * Limits on everything that stores something. A request without cookies is a new shopper
 * every time, so what one client address may make is limited per window (small limits
 * here, through the same settings the README lists), and what one shopper keeps is
 * limited by counts in the database. Over a limit: 429 with Retry-After, the page (or the
 * ajax fragment) in the shopper's language with everything typed, and nothing stored.
 */

const home = "203.0.113.10";
const neighbour = "198.51.100.20";

const nl = {
  product: "/assortiment/fotoboeken/exclusief-fotoboek",
  contents: "/winkelwagen/inhoud",
  address: "/winkelwagen/adres",
  start: "/fotoboek-maken",
  startFor: "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30",
  upload: "/fotoboek-maken/fotos",
};
const de = {
  product: "/sortiment/fotobuecher/exklusives-fotobuch",
  contents: "/einkaufswagen/inhalt",
  address: "/einkaufswagen/adresse",
  start: "/fotobuch-gestalten",
  startFor: "/fotobuch-gestalten?fotobuch=exklusives-fotobuch&ausrichtung=hochformat&format=21x30",
  upload: "/fotobuch-gestalten/fotos",
};
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const prints = { product: "classic-prints", orientation: "landscape", size: "15x10" };
const canvas = { product: "canvas", orientation: "landscape", size: "40x30" };
const annasAddress = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234 AB",
  city: "Utrecht",
  country: "NL",
  email: "anna@example.nl",
  phone: "06 12345678",
};
const ajax = { "x-requested-with": "XMLHttpRequest" };

/** A browser at one client address: keeps its cookies and the form token of the last page. */
class Browser {
  cookies = new Map<string, string>();
  token = "";

  constructor(
    private readonly app: FastifyInstance,
    readonly ip = home,
  ) {}

  private cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private remember(res: LightMyRequestResponse) {
    for (const c of res.cookies) {
      if (c.maxAge === 0 || c.value === "") this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1];
    if (token) this.token = token;
    return res;
  }

  async get(url: string, headers: Record<string, string> = {}) {
    return this.remember(
      await this.app.inject({
        url,
        remoteAddress: this.ip,
        headers: { cookie: this.cookieHeader(), ...headers },
      }),
    );
  }

  async post(
    url: string,
    body: { payload: Buffer | string; contentType: string },
    headers: Record<string, string> = {},
  ) {
    return this.remember(
      await this.app.inject({
        method: "POST",
        url,
        remoteAddress: this.ip,
        payload: body.payload,
        headers: {
          cookie: this.cookieHeader(),
          "content-type": body.contentType,
          "sec-fetch-site": "same-origin",
          ...headers,
        },
      }),
    );
  }

  form(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const payload = new URLSearchParams({ _csrf: this.token, ...fields }).toString();
    return this.post(url, { payload, contentType: "application/x-www-form-urlencoded" }, headers);
  }

  /** Photos as the form without JavaScript sends them, with the page's token first. */
  files(url: string, parts: Part[], headers: Record<string, string> = {}) {
    return this.post(url, multipart([{ name: "_csrf", value: this.token }, ...parts]), headers);
  }

  follow(res: LightMyRequestResponse) {
    return this.get(String(res.headers.location));
  }

  signed(name: string): string {
    return this.app.unsignCookie(this.cookies.get(name) ?? "").value ?? "";
  }
}

/** A browser that has just opened a page (so it has a form token), at an address. */
async function browserAt(app: FastifyInstance, page: string, ip = home): Promise<Browser> {
  const browser = new Browser(app, ip);
  await browser.get(page);
  return browser;
}

const jpeg = async (filename: string): Promise<Part> => ({
  name: "photos",
  file: { filename, data: await photos.jpeg(400, 300), type: "image/jpeg" },
});
const photo = async (filename: string): Promise<Part> => ({ ...(await jpeg(filename)), name: "photo" });

type Table = keyof Schema;

function expectRefusal(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(429);
  expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
}

describe.each(testDatabases())("limits on what one client stores, on $name", (target: TestDatabase) => {
  const shops: TestShop[] = [];
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    for (const s of shops.splice(0)) await s.app.close();
    await cleanup?.();
    cleanup = undefined;
  });

  async function shopWith(env: Record<string, string>): Promise<TestShop> {
    const opened = await target.open();
    cleanup = opened.cleanup;
    // Only the test closes the database.
    const shop = await testShop({ env, database: { ...opened.database, close: async () => {} } });
    shops.push(shop);
    return shop;
  }

  const rows = async (shop: TestShop, table: Table) => {
    const row = await shop.database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  describe("carts", () => {
    it("a client whose browser keeps no cookies starts a new cart with every add, up to CART_RATE_LIMIT an hour; then the product page says so in its language with the choice kept", async () => {
      const shop = await shopWith({ CART_RATE_LIMIT: "2" });
      for (let i = 0; i < 2; i++) {
        const cookieless = await browserAt(shop.app, nl.product);
        expect((await cookieless.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      }
      expect(await rows(shop, "carts")).toBe(2);

      const third = await browserAt(shop.app, nl.product);
      const res = await third.form(nl.contents, { ...book, quantity: "3" });
      expectRefusal(res);
      expect(res.body).toContain('<html lang="nl"');
      expect(textOf(res.body)).toContain(
        "Vanaf deze verbinding zijn in korte tijd heel veel nieuwe winkelwagens begonnen, dus er is nu niets toegevoegd. Probeer het over",
      );
      expect(res.body).toMatch(/name="quantity"[^>]*value="3"/);
      expect(third.cookies.has("cart")).toBe(false);

      // With JavaScript, from the cart's tips, in German: the cart's region with the message.
      const german = await browserAt(shop.app, de.product);
      const fragment = await german.form(de.contents, { ...prints, quantity: "1", from: "cart" }, ajax);
      expectRefusal(fragment);
      expect(fragment.headers["x-ajax-fragment"]).toBe("true");
      expect(fragment.body).not.toContain("<html");
      expect(textOf(fragment.body)).toContain(
        "Von dieser Verbindung aus wurden in kurzer Zeit sehr viele neue Einkaufswagen begonnen",
      );
      expect(await rows(shop, "carts")).toBe(2);
      expect(await rows(shop, "cart_lines")).toBe(2);

      // A shopper with a cart goes on adding; another address starts its own.
      const neighbours = await browserAt(shop.app, nl.product, neighbour);
      expect((await neighbours.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      expect(await rows(shop, "carts")).toBe(3);
    });

    it("a client that changes carts more than CART_CHANGE_RATE_LIMIT times a minute is refused the next change, the cart shown as it was with the quantity typed", async () => {
      const shop = await shopWith({ CART_CHANGE_RATE_LIMIT: "3" });
      const anna = await browserAt(shop.app, nl.product);
      expect((await anna.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      expect((await anna.form(nl.contents, { ...prints, quantity: "2" })).statusCode).toBe(303);
      expect((await anna.form(nl.contents, { ...book, quantity: "2", intent: "update" })).statusCode).toBe(
        303,
      );

      const update = await anna.form(nl.contents, { ...book, quantity: "7", intent: "update" });
      expectRefusal(update);
      expect(update.body).toContain('<html lang="nl"');
      expect(textOf(update.body)).toContain(
        "Je hebt in korte tijd heel veel aan je winkelwagen veranderd. Deze wijziging is niet doorgevoerd. Probeer het over een minuut opnieuw.",
      );
      expect(update.body).toMatch(/name="quantity"[^>]*value="7"/);

      const removal = await anna.form(nl.contents, { ...prints, intent: "remove" }, ajax);
      expectRefusal(removal);
      expect(removal.headers["x-ajax-fragment"]).toBe("true");
      const add = await anna.form(de.contents, { ...canvas, quantity: "1", from: "cart" }, ajax);
      expectRefusal(add);
      expect(textOf(add.body)).toContain(
        "Sie haben in kurzer Zeit sehr viel an Ihrem Einkaufswagen geändert.",
      );

      const lines = await shop.database.db
        .selectFrom("cart_lines")
        .select(["product_id", "quantity"])
        .where("cart_id", "=", anna.signed("cart"))
        .orderBy("added_at")
        .execute();
      expect(lines.map((l) => [l.product_id, Number(l.quantity)])).toEqual([
        ["exclusive-photobook", 2],
        ["classic-prints", 2],
      ]);

      const neighbours = await browserAt(shop.app, nl.product, neighbour);
      expect((await neighbours.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
    });

    it("a shopper whose cart holds CART_LINE_LIMIT lines cannot add another, but can still change the ones there", async () => {
      const shop = await shopWith({ CART_LINE_LIMIT: "2" });
      const anna = await browserAt(shop.app, nl.product);
      expect((await anna.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      expect((await anna.form(nl.contents, { ...prints, quantity: "1" })).statusCode).toBe(303);

      const third = await anna.form(nl.contents, { ...canvas, quantity: "2" });
      expect(third.statusCode).toBe(422);
      expect(textOf(third.body)).toContain(
        "Je winkelwagen kan hoogstens 2 verschillende artikelen bevatten. Haal eerst iets weg of plaats je bestelling; je winkelwagen is niet veranderd.",
      );
      expect(third.body).toMatch(/name="quantity"[^>]*value="2"/);
      const german = await anna.form(de.contents, { ...canvas, quantity: "1", from: "cart" }, ajax);
      expect(german.statusCode).toBe(422);
      expect(german.headers["x-ajax-fragment"]).toBe("true");
      expect(textOf(german.body)).toContain(
        "Ihr Einkaufswagen kann höchstens 2 verschiedene Artikel enthalten.",
      );
      expect(await rows(shop, "cart_lines")).toBe(2);

      expect((await anna.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      expect((await anna.form(nl.contents, { ...prints, quantity: "5", intent: "update" })).statusCode).toBe(
        303,
      );
      expect((await anna.form(nl.contents, { ...prints, intent: "remove" })).statusCode).toBe(303);
      expect((await anna.form(nl.contents, { ...canvas, quantity: "1" })).statusCode).toBe(303);
      const lines = await shop.database.db
        .selectFrom("cart_lines")
        .select(["product_id", "quantity"])
        .orderBy("added_at")
        .execute();
      expect(lines.map((l) => [l.product_id, Number(l.quantity)])).toEqual([
        ["exclusive-photobook", 2],
        ["canvas", 1],
      ]);
    });

    it("a shopper who adds many new lines at the same moment still ends with CART_LINE_LIMIT lines", async () => {
      const shop = await shopWith({ CART_LINE_LIMIT: "3" });
      const anna = await browserAt(shop.app, nl.product);
      expect((await anna.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      const options = [
        ["exclusive-photobook", "landscape", "30x21"],
        ["exclusive-photobook", "square", "30x30"],
        ["classic-photobook", "landscape", "20x15"],
        ["classic-photobook", "portrait", "21x30"],
        ["square-photobook", "square", "15x15"],
        ["square-photobook", "square", "20x20"],
        ["classic-prints", "landscape", "15x10"],
        ["classic-prints", "portrait", "10x15"],
      ] as const;
      const answers = await Promise.all(
        options.map(([product, orientation, size]) =>
          anna.form(nl.contents, { product, orientation, size, quantity: "1", from: "cart" }, ajax),
        ),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(2);
      expect(answers.filter((r) => r.statusCode === 422)).toHaveLength(6);
      expect(await rows(shop, "cart_lines")).toBe(3);
    });
  });

  describe("delivery addresses", () => {
    it("a client that saved ADDRESS_RATE_LIMIT addresses lately gets the form back with every field as typed, in its language, and nothing saved", async () => {
      const shop = await shopWith({ ADDRESS_RATE_LIMIT: "2" });
      const anna = await browserAt(shop.app, nl.product);
      expect((await anna.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      await anna.get(nl.address);
      // A mistake corrected without JavaScript stores nothing and does not count.
      expect((await anna.form(nl.address, { ...annasAddress, postcode: "12" })).statusCode).toBe(422);
      expect((await anna.form(nl.address, annasAddress)).statusCode).toBe(303);
      await anna.get(nl.address);
      expect((await anna.form(nl.address, { ...annasAddress, street: "Dorpsstraat 14" })).statusCode).toBe(
        303,
      );

      await anna.get(nl.address);
      const moved = { ...annasAddress, street: "Kerkplein 3", city: "Amersfoort", postcode: "3811 AA" };
      const res = await anna.form(nl.address, moved);
      expectRefusal(res);
      expect(res.body).toContain('<html lang="nl"');
      expect(textOf(res.body)).toContain(
        "Vanaf deze verbinding zijn in korte tijd heel veel bezorgadressen opgeslagen, dus dit adres is nog niet opgeslagen. Alles wat je invulde staat er nog. Probeer het over",
      );
      for (const [name, value] of Object.entries(moved)) {
        if (name === "country") expect(res.body).toContain('<option value="NL" selected>');
        else expect(res.body, name).toMatch(new RegExp(`name="${name}"[^>]*value="${value}"`));
      }
      const saved = await shop.database.db.selectFrom("cart_addresses").select(["street", "city"]).execute();
      expect(saved).toEqual([{ street: "Dorpsstraat 14", city: "Utrecht" }]);

      const german = await anna.form(de.address, {
        ...moved,
        country: "DE",
        postcode: "10115",
        city: "Berlin",
      });
      expectRefusal(german);
      expect(german.body).toContain('<html lang="de"');
      expect(textOf(german.body)).toContain(
        "Von dieser Verbindung aus wurden in kurzer Zeit sehr viele Lieferadressen gespeichert",
      );
      expect(german.body).toMatch(/name="city"[^>]*value="Berlin"/);

      const neighbours = await browserAt(shop.app, nl.product, neighbour);
      expect((await neighbours.form(nl.contents, { ...book, quantity: "1" })).statusCode).toBe(303);
      await neighbours.get(nl.address);
      expect((await neighbours.form(nl.address, annasAddress)).statusCode).toBe(303);
      expect(await rows(shop, "cart_addresses")).toBe(2);
    });
  });

  describe("photos", () => {
    it("a client that uploaded UPLOAD_RATE_LIMIT photos this hour gets the uploader's refusal, 429, for the next; nothing of it is kept", async () => {
      const shop = await shopWith({ UPLOAD_RATE_LIMIT: "2" });
      const anna = await browserAt(shop.app, nl.startFor);
      const headers = { ...ajax, "x-csrf-token": anna.token };
      for (const name of ["een.jpg", "twee.jpg"]) {
        expect((await anna.files(nl.upload, [await photo(name)], headers)).statusCode).toBe(200);
      }
      const third = await anna.files(nl.upload, [await photo("drie.jpg")], headers);
      expectRefusal(third);
      expect(third.body).toMatch(/^\s*<p class="upload-error">/);
      expect(textOf(third.body)).toMatch(
        /^drie\.jpg: vanaf deze verbinding zijn in korte tijd heel veel foto's geüpload, dus deze foto is niet bewaard\. Probeer het over \d+ minuten opnieuw\.$/,
      );
      const german = await browserAt(shop.app, de.startFor);
      const refused = await german.files(de.upload, [await photo("vier.jpg")], {
        ...ajax,
        "x-csrf-token": german.token,
      });
      expectRefusal(refused);
      expect(textOf(refused.body)).toContain(
        "vier.jpg: Von dieser Verbindung aus wurden in kurzer Zeit sehr viele Fotos hochgeladen, deshalb wurde dieses Foto nicht gespeichert.",
      );
      expect(await rows(shop, "uploads")).toBe(2);

      const neighbours = await browserAt(shop.app, nl.startFor, neighbour);
      const theirs = await neighbours.files(nl.upload, [await photo("buren.jpg")], {
        ...ajax,
        "x-csrf-token": neighbours.token,
      });
      expect(theirs.statusCode).toBe(200);
      expect(await rows(shop, "uploads")).toBe(3);
    });

    /** A photo of noise, 0.37 MB: two fit in 1 MB, a third does not. */
    const large = async (filename: string, field = "photo"): Promise<Part> => ({
      name: field,
      file: { filename, data: await photos.noisyJpeg(700), type: "image/jpeg" },
    });
    /** One post through the uploader from a browser that has never been here: a new shopper every time. */
    const newShopperUploads = async (shop: TestShop, part: Part, ip = home) => {
      const browser = await browserAt(shop.app, nl.startFor, ip);
      return browser.files(nl.upload, [part], { ...ajax, "x-csrf-token": browser.token });
    };

    it("a client address stores at most UPLOAD_BYTES_PER_CLIENT_MB an hour, however many shoppers it is: then 429 in words, JS on and off, and another address goes on", async () => {
      const shop = await shopWith({ UPLOAD_BYTES_PER_CLIENT_MB: "1" });
      for (const name of ["een.jpg", "twee.jpg"]) {
        expect((await newShopperUploads(shop, await large(name))).statusCode).toBe(200);
      }
      const third = await newShopperUploads(shop, await large("drie.jpg"));
      expectRefusal(third);
      expect(textOf(third.body)).toMatch(
        /^drie\.jpg: vanaf je verbinding is het afgelopen uur al meer dan 1 MB aan foto's geüpload, dus deze foto is niet bewaard\. Probeer het over \d+ minuten opnieuw\.$/,
      );

      // Without JavaScript, in German: the start form back, its choice kept, 429.
      const german = await browserAt(shop.app, de.startFor);
      const refused = await german.files(de.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await large("vier.jpg", "photos"),
      ]);
      expectRefusal(refused);
      expect(textOf(refused.body)).toContain(
        "vier.jpg: Von Ihrer Verbindung aus wurden in der letzten Stunde schon mehr als 1 MB an Fotos hochgeladen, deshalb wurde dieses Foto nicht gespeichert. Versuchen Sie es bitte in",
      );
      expect(refused.body).toContain('<option value="portrait:21x30" selected>');
      expect(await rows(shop, "uploads")).toBe(2);
      expect(await rows(shop, "photo_projects")).toBe(0);

      expect((await newShopperUploads(shop, await large("buren.jpg"), neighbour)).statusCode).toBe(200);
      expect(await rows(shop, "uploads")).toBe(3);
    });

    it("an IPv6 client counts per /64: other addresses in its block share its bytes, the next block has its own", async () => {
      const shop = await shopWith({ UPLOAD_BYTES_PER_CLIENT_MB: "1" });
      expect((await newShopperUploads(shop, await large("een.jpg"), "2001:db8:1:2::10")).statusCode).toBe(
        200,
      );
      expect(
        (await newShopperUploads(shop, await large("twee.jpg"), "2001:db8:1:2:ffff:1:2:3")).statusCode,
      ).toBe(200);
      expectRefusal(await newShopperUploads(shop, await large("drie.jpg"), "2001:db8:1:2:abcd::99"));
      expect((await newShopperUploads(shop, await large("buren.jpg"), "2001:db8:1:3::10")).statusCode).toBe(
        200,
      );
      expect(await rows(shop, "uploads")).toBe(3);
    });

    it("uploads sent at the same moment cannot all pass the byte limit: two of five are kept", async () => {
      const shop = await shopWith({ UPLOAD_BYTES_PER_CLIENT_MB: "1" });
      const parts = await Promise.all(["1", "2", "3", "4", "5"].map((n) => large(`${n}.jpg`)));
      const browsers = await Promise.all(parts.map(() => browserAt(shop.app, nl.startFor)));
      const answers = await Promise.all(
        browsers.map((b, i) => b.files(nl.upload, [parts[i] as Part], { ...ajax, "x-csrf-token": b.token })),
      );
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 200, 429, 429, 429]);
      expect(await rows(shop, "uploads")).toBe(2);
    });

    it("a refused photo's bytes do not count: a client whose files were not photos still has its whole allowance", async () => {
      const shop = await shopWith({ UPLOAD_BYTES_PER_CLIENT_MB: "1" });
      const junkTailed = photos.withJunkAfter(await photos.jpeg(400, 300), 900 * 1024);
      for (const name of ["a.jpg", "b.jpg"]) {
        const res = await newShopperUploads(shop, {
          name: "photo",
          file: { filename: name, data: junkTailed },
        });
        expect(res.statusCode).toBe(422);
      }
      for (const name of ["een.jpg", "twee.jpg"]) {
        expect((await newShopperUploads(shop, await large(name))).statusCode).toBe(200);
      }
    });

    it("an instance holding UPLOAD_STORAGE_MAX_GB of photos refuses the next one with 507 in words, JS on and off, and keeps nothing of it", async () => {
      const shop = await shopWith({ UPLOAD_STORAGE_MAX_GB: "1" });
      // Everyone's photos so far: 1 GB but 0.5 MB.
      await uploadRepository(shop.database.db).add({
        ownerId: "someone-else",
        originalName: "archief.jpg",
        format: "jpeg",
        width: 4000,
        height: 3000,
        bytes: 1024 ** 3 - 512 * 1024,
      });
      expect((await newShopperUploads(shop, await large("past.jpg"))).statusCode).toBe(200);
      const full = await newShopperUploads(shop, await large("vol.jpg"));
      expect(full.statusCode).toBe(507);
      expect(textOf(full.body)).toBe(
        "vol.jpg: de winkel kan op dit moment geen foto's meer bewaren. Probeer het later nog eens; je andere foto's blijven bewaard.",
      );

      // Without JavaScript, adding to a book in German: the book's page, 507, its photos as they were.
      const german = await browserAt(shop.app, de.startFor, neighbour);
      const started = await german.files(de.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await jpeg("klein.jpg"),
      ]);
      expect(started.statusCode).toBe(303);
      await german.follow(started);
      const more = await german.files(`${String(started.headers.location)}/fotos`, [
        await large("mehr.jpg", "photos"),
      ]);
      expect(more.statusCode).toBe(507);
      expect(textOf(more.body)).toContain(
        "mehr.jpg: Der Shop kann im Moment keine weiteren Fotos speichern. Versuchen Sie es später noch einmal; Ihre anderen Fotos bleiben gespeichert.",
      );
      expect(await rows(shop, "uploads")).toBe(3);
    });

    it("a client's photos count one by one: a form with more files than the limit leaves keeps the first ones and names the rest", async () => {
      const shop = await shopWith({ UPLOAD_RATE_LIMIT: "2" });
      const anna = await browserAt(shop.app, nl.startFor);
      const start = await anna.files(nl.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await jpeg("een.jpg"),
        await jpeg("twee.jpg"),
        await jpeg("drie.jpg"),
      ]);
      expect(start.statusCode).toBe(303);
      const project = await anna.follow(start);
      const text = textOf(project.body);
      expect(text).toContain("2 foto's toegevoegd aan je fotoboek.");
      expect(text).toContain("drie.jpg: vanaf deze verbinding zijn in korte tijd heel veel foto's geüpload");
      expect(await rows(shop, "uploads")).toBe(2);

      // Adding to the book without JavaScript: nothing fits any more, said at once with 429.
      const more = await anna.files(`${String(start.headers.location)}/fotos`, [await jpeg("vier.jpg")]);
      expectRefusal(more);
      expect(textOf(more.body)).toContain(
        "vier.jpg: vanaf deze verbinding zijn in korte tijd heel veel foto's geüpload",
      );
      expect(more.body).toContain('alt="Pagina 2: twee.jpg"');

      // Starting a book with only refused photos: the start form, the format still chosen.
      const again = await anna.files(nl.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await jpeg("vijf.jpg"),
      ]);
      expectRefusal(again);
      expect(again.body).toContain('<option value="portrait:21x30" selected>');
      expect(textOf(again.body)).toContain("vijf.jpg: vanaf deze verbinding");
      expect(await rows(shop, "uploads")).toBe(2);
      expect(await rows(shop, "photo_projects")).toBe(1);
    });

    it("a client that started PROJECT_RATE_LIMIT photo books this hour starts no new one: its choice stays, its photos are not kept, and other addresses go on", async () => {
      const shop = await shopWith({ PROJECT_RATE_LIMIT: "1" });
      const anna = await browserAt(shop.app, nl.startFor);
      const first = await anna.files(nl.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await jpeg("een.jpg"),
      ]);
      expect(first.statusCode).toBe(303);

      await anna.get(nl.startFor);
      const second = await anna.files(nl.start, [
        { name: "product", value: book.product },
        { name: "format", value: "landscape:30x21" },
        await jpeg("twee.jpg"),
      ]);
      expectRefusal(second);
      expect(second.body).toContain('<html lang="nl"');
      expect(second.body).toContain('<option value="landscape:30x21" selected>');
      expect(textOf(second.body)).toContain(
        "Vanaf deze verbinding zijn in korte tijd heel veel fotoboeken begonnen, dus er is nu geen nieuw begonnen. Je keuze staat er nog. Probeer het over",
      );

      const german = await browserAt(shop.app, de.startFor);
      const refused = await german.files(de.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await jpeg("drei.jpg"),
      ]);
      expectRefusal(refused);
      expect(refused.body).toContain('<html lang="de"');
      expect(textOf(refused.body)).toContain(
        "Von dieser Verbindung aus wurden in kurzer Zeit sehr viele Fotobücher begonnen",
      );
      expect(await rows(shop, "photo_projects")).toBe(1);
      expect(await rows(shop, "uploads")).toBe(1);

      const neighbours = await browserAt(shop.app, nl.startFor, neighbour);
      const theirs = await neighbours.files(nl.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await jpeg("buren.jpg"),
      ]);
      expect(theirs.statusCode).toBe(303);
      expect(await rows(shop, "photo_projects")).toBe(2);
    });

    it("a photo book goes into a new cart only within CART_RATE_LIMIT, and into a full cart not at all; the project page keeps the quantity typed", async () => {
      const shop = await shopWith({ CART_RATE_LIMIT: "1", CART_LINE_LIMIT: "1" });
      const anna = await browserAt(shop.app, nl.startFor);
      const start = await anna.files(nl.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await jpeg("een.jpg"),
      ]);
      const page = await anna.follow(start);
      const project = /name="project" value="([\w-]{22})"/.exec(page.body)?.[1] ?? "";
      expect((await anna.form(nl.contents, { project, quantity: "1" })).statusCode).toBe(303);

      // The cart already holds its one line: a plain product does not fit beside the book.
      const beside = await anna.form(nl.contents, { ...prints, quantity: "1" });
      expect(beside.statusCode).toBe(422);
      expect(textOf(beside.body)).toContain(
        "Je winkelwagen kan hoogstens 1 verschillende artikelen bevatten.",
      );

      // The cart is forgotten (cookies cleared): a new one would be the client's second this hour.
      anna.cookies.delete("cart");
      await anna.get(String(start.headers.location));
      const res = await anna.form(nl.contents, { project, quantity: "4" });
      expectRefusal(res);
      expect(textOf(res.body)).toContain(
        "Vanaf deze verbinding zijn in korte tijd heel veel nieuwe winkelwagens begonnen",
      );
      expect(res.body).toMatch(/name="quantity"[^>]*value="4"/);
      expect(await rows(shop, "carts")).toBe(1);
      expect(await rows(shop, "cart_lines")).toBe(1);
    });
  });

  describe("analytics", () => {
    const send = (shop: TestShop, events: number, ip = home) =>
      shop.app.inject({
        method: "POST",
        url: "/analytics/events",
        remoteAddress: ip,
        headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
        payload: JSON.stringify({
          route: "home",
          locale: "nl",
          events: Array.from({ length: events }, () => ({
            event: "share",
            properties: { network: "whatsapp" },
          })),
        }),
      });

    it("a client's beacons store at most ANALYTICS_RATE_LIMIT events a minute; a batch that does not fit is dropped whole", async () => {
      const shop = await shopWith({ ANALYTICS_RATE_LIMIT: "5" });
      expect((await send(shop, 3)).statusCode).toBe(204);
      const dropped = await send(shop, 3);
      expectRefusal(dropped);
      // A beacon's answer is read by nobody: a short JSON note, never a page.
      expect(dropped.headers["content-type"]).toMatch(/^application\/json/);
      expect((await send(shop, 1)).statusCode).toBe(429);
      expect(await rows(shop, "analytics_events")).toBe(3);
      expect((await send(shop, 5, neighbour)).statusCode).toBe(204);
      expect(await rows(shop, "analytics_events")).toBe(8);
    });
  });
});

/** Limits that existed before, each pinned at its number; one shop, a fresh client address per limit. */
describe("every rate limit at its number", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop();
  });
  afterAll(() => shop.close());

  let address = 0;
  /** A client address no other test of this block uses. */
  const fresh = () => `192.0.2.${++address}`;

  /** Statuses of `count` requests made one after the other. */
  async function statuses(count: number, request: () => Promise<LightMyRequestResponse>) {
    const seen: number[] = [];
    for (let i = 0; i < count; i++) seen.push((await request()).statusCode);
    return seen;
  }
  const all = (count: number, status: number) => Array.from({ length: count }, () => status);

  it("the postcode check answers 120 times a minute per client, then 429", async () => {
    const ip = fresh();
    const check = (from = ip) =>
      shop.app.inject({ url: "/api/postcode-controle?postcode=1234AB&country=NL", remoteAddress: from });
    expect(await statuses(120, () => check())).toEqual(all(120, 200));
    expectRefusal(await check());
    expect((await check(fresh())).statusCode).toBe(200);
  });

  it("the sign-up e-mail check answers 60 times a minute per client, then 429", async () => {
    const ip = fresh();
    const check = (from = ip) =>
      shop.app.inject({ url: "/api/abonnement-email-controle?email=anna%40example.nl", remoteAddress: from });
    expect(await statuses(60, () => check())).toEqual(all(60, 200));
    expectRefusal(await check());
    expect((await check(fresh())).statusCode).toBe(200);
  });

  it("the uploader's address takes 120 posts a minute per client, then 429", async () => {
    const browser = await browserAt(shop.app, nl.startFor, fresh());
    const headers = { ...ajax, "x-csrf-token": browser.token };
    // Posts without a file: refused (422) without any photo work, but counted all the same.
    expect(await statuses(120, () => browser.files(nl.upload, [], headers))).toEqual(all(120, 422));
    expectRefusal(await browser.files(nl.upload, [], headers));
  });

  it("the editor's start takes 60 posts a minute per client, its photo form 60 and its remove button 120, then 429", async () => {
    const browser = await browserAt(shop.app, nl.startFor, fresh());
    const startPost = () =>
      browser.files(nl.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
      ]);
    expect(await statuses(60, startPost)).toEqual(all(60, 422));
    expectRefusal(await startPost());

    const owner = await browserAt(shop.app, nl.startFor, fresh());
    const started = await owner.files(nl.start, [
      { name: "product", value: book.product },
      { name: "format", value: "portrait:21x30" },
      await jpeg("een.jpg"),
    ]);
    expect(started.statusCode).toBe(303);
    await owner.follow(started);
    const photosPost = () => owner.files(`${String(started.headers.location)}/fotos`, []);
    // The first post above came from this address too: it counts against the start's own limit only.
    expect(await statuses(60, photosPost)).toEqual(all(60, 303));
    expectRefusal(await photosPost());

    const remover = await browserAt(shop.app, nl.startFor, fresh());
    const remove = () =>
      remover.form("/fotoboek-maken/fotos/verwijderen", { remove: "AAAAAAAAAAAAAAAAAAAAAA" });
    expect(await statuses(120, remove)).toEqual(all(120, 404));
    expectRefusal(await remove());
  });

  it("analytics beacons: 60 a minute per client, then 429", async () => {
    const ip = fresh();
    const beacon = () =>
      shop.app.inject({
        method: "POST",
        url: "/analytics/events",
        remoteAddress: ip,
        headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
        payload: JSON.stringify({
          route: "home",
          locale: "nl",
          events: [{ event: "share", properties: {} }],
        }),
      });
    expect(await statuses(60, beacon)).toEqual(all(60, 204));
    expect((await beacon()).statusCode).toBe(429);
  });

  it("sign-ups: SIGNUP_RATE_LIMIT (10) posts per 10 minutes per client, refused ones included, then the localized 429 with what was typed", async () => {
    const browser = await browserAt(shop.app, "/abonnement", fresh());
    const signup = (email: string) =>
      browser.form("/abonnement/aanmelden", {
        plan: "plus",
        country: "NL",
        name: "Fenna",
        email,
        password: "kort",
      });
    expect(await statuses(10, () => signup("fenna@example.nl"))).toEqual(all(10, 422));
    const res = await signup("fenna@voorbeeld.nl");
    expectRefusal(res);
    expect(textOf(res.body)).toContain(
      "Vanaf deze verbinding is kort na elkaar vaak geprobeerd een abonnement af te sluiten.",
    );
    expect(res.body).toMatch(/value="fenna@voorbeeld\.nl"/);
  });

  it("contact: CONTACT_RATE_LIMIT (10) messages, and five times as many posts, per 10 minutes per client", async () => {
    const browser = await browserAt(shop.app, "/klantenservice/contact", fresh());
    const ask = (email: string) =>
      browser.form("/klantenservice/contact", { name: "Anna", email, question: "Hallo?", website: "" });
    // "Hallo?" is too short a question: refused, stored nowhere, counted among the posts only.
    expect(await statuses(50, () => ask("anna@example.nl"))).toEqual(all(50, 422));
    const res = await ask("anna@voorbeeld.nl");
    expectRefusal(res);
    expect(textOf(res.body)).toContain("Je hebt kort na elkaar veel berichten verstuurd.");
    expect(res.body).toMatch(/value="anna@voorbeeld\.nl"/);
  });
});

/** What one shopper (one browser) may keep, whatever its address: counted in the database. */
describe("the photo limits per shopper and per book, at their numbers", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await testShop();
  });
  afterAll(() => shop.close());

  /** A shopper who already keeps `count` photos (rows as the intake writes them), in `projectId` if given. */
  async function keeps(owner: string, count: number, projectId?: string) {
    const uploads = uploadRepository(shop.database.db);
    for (let i = 0; i < count; i++) {
      await uploads.add({
        ownerId: owner,
        originalName: `oud-${i}.jpg`,
        format: "jpeg",
        width: 400,
        height: 300,
        bytes: 1000,
        ...(projectId ? { projectId } : {}),
      });
    }
  }

  it(`a shopper keeps at most ${uploadLimits.maxPhotosPerShopper} photos: the next is refused with the number`, async () => {
    const anna = await browserAt(shop.app, nl.startFor, "192.0.2.201");
    const headers = { ...ajax, "x-csrf-token": anna.token };
    expect((await anna.files(nl.upload, [await photo("eerste.jpg")], headers)).statusCode).toBe(200);
    const owner = anna.signed("shopper");
    await keeps(owner, uploadLimits.maxPhotosPerShopper - 2);
    expect((await anna.files(nl.upload, [await photo("laatste.jpg")], headers)).statusCode).toBe(200);
    const over = await anna.files(nl.upload, [await photo("teveel.jpg")], headers);
    expect(over.statusCode).toBe(422);
    expect(textOf(over.body)).toContain(
      `teveel.jpg: je hebt het maximum van ${uploadLimits.maxPhotosPerShopper} foto's bereikt.`,
    );
    expect(await uploadRepository(shop.database.db).countByOwner(owner)).toBe(
      uploadLimits.maxPhotosPerShopper,
    );
  });

  it(`a photo book holds at most ${uploadLimits.maxPhotosPerProject} photos: of two sent to a book with one place left, one joins`, async () => {
    const anna = await browserAt(shop.app, nl.startFor, "192.0.2.202");
    const start = await anna.files(nl.start, [
      { name: "product", value: book.product },
      { name: "format", value: "portrait:21x30" },
      await jpeg("een.jpg"),
    ]);
    const projectId = /\/project\/([\w-]{22})$/.exec(String(start.headers.location))?.[1] ?? "";
    await keeps(anna.signed("shopper"), uploadLimits.maxPhotosPerProject - 2, projectId);
    await anna.follow(start);
    const res = await anna.files(`${String(start.headers.location)}/fotos`, [
      await jpeg("past.jpg"),
      await jpeg("vol.jpg"),
    ]);
    expect(res.statusCode).toBe(303);
    const text = textOf((await anna.follow(res)).body);
    expect(text).toContain("1 foto toegevoegd aan je fotoboek.");
    expect(text).toContain(
      `vol.jpg: je fotoboek is vol (maximaal ${uploadLimits.maxPhotosPerProject} foto's).`,
    );
    expect(await uploadRepository(shop.database.db).countInProject(projectId)).toBe(
      uploadLimits.maxPhotosPerProject,
    );
  });

  it(`a shopper keeps at most ${uploadLimits.maxProjectsPerShopper} photo books: the next start is refused and keeps no photo`, async () => {
    const anna = await browserAt(shop.app, nl.startFor, "192.0.2.203");
    const startWith = async (name: string) =>
      anna.files(nl.start, [
        { name: "product", value: book.product },
        { name: "format", value: "portrait:21x30" },
        await jpeg(name),
      ]);
    expect((await startWith("een.jpg")).statusCode).toBe(303);
    const owner = anna.signed("shopper");
    const projects = photoProjectRepository(shop.database.db);
    for (let i = 0; i < uploadLimits.maxProjectsPerShopper - 2; i++) {
      await projects.create(owner, { productId: book.product, orientation: "portrait", sizeId: "21x30" });
    }
    await anna.get(nl.startFor);
    expect((await startWith("laatste.jpg")).statusCode).toBe(303);
    await anna.get(nl.startFor);
    const over = await startWith("teveel.jpg");
    expect(over.statusCode).toBe(422);
    expect(textOf(over.body)).toContain(
      `Je hebt in deze browser al ${uploadLimits.maxProjectsPerShopper} fotoboeken gemaakt, meer kunnen we niet bewaren.`,
    );
    expect(await projects.countByOwner(owner)).toBe(uploadLimits.maxProjectsPerShopper);
    expect(await uploadRepository(shop.database.db).countByOwner(owner)).toBe(2);
  });
});
