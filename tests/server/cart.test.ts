import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { cartRepository } from "../../server/store/cart-repository.ts";
import { openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { signed, type TestShop, testShop } from "../support/app.ts";
import { type Shopper, shopper, textOf } from "../support/shopper.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

const contents = "/winkelwagen/inhoud";
const inhalt = "/einkaufswagen/inhalt";
const portraitBook = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };
const prints = { product: "classic-prints", orientation: "landscape", size: "15x10" };
const canvas = { product: "canvas", orientation: "landscape", size: "40x30" };
const productPage = "/assortiment/fotoboeken/exclusief-fotoboek";
const produktseite = "/sortiment/fotobuecher/exklusives-fotobuch";

/** A shopper who put these lines in the cart, the way the product page does. */
async function shopperWith(lines: Array<Record<string, string>>, firstPage = productPage): Promise<Shopper> {
  const s = await shopper(shop.app, firstPage);
  for (const line of lines) {
    const res = await s.post(contents, line);
    expect(res.statusCode, JSON.stringify(line)).toBe(303);
  }
  return s;
}

const cartIdOf = (s: Shopper) => shop.app.unsignCookie(s.cookies.get("cart") ?? "").value ?? "";
const linesOf = (s: Shopper) => cartRepository(shop.database.db).lines(cartIdOf(s));
const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html;
/** The cart cookie an answer sets, if any. */
const cartCookie = (res: { cookies: Array<{ name: string; value: string; maxAge?: number }> }) =>
  res.cookies.find((c) => c.name === "cart");
const sixtyDays = 60 * 60 * 24 * 60;

describe("the cart contents page", () => {
  it("when the cart is empty, is a friendly page that links to the range, without tips", async () => {
    const res = await (await shopper(shop.app)).get(contents);
    expect(res.statusCode).toBe(200);
    const text = textOf(main(res.body));
    expect(text).toContain("Je winkelwagen is leeg");
    for (const path of [
      "/assortiment/fotoboeken",
      "/assortiment/fotoafdrukken",
      "/assortiment/wanddecoratie",
    ]) {
      expect(res.body).toContain(`href="${path}"`);
    }
    expect(text).not.toContain("Onze tips");
    expect(text).not.toContain("Verder naar je adres");
  });

  it("shows each line with image, name, options, unit price, quantity and line total", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    const res = await s.get(contents);
    const html = main(res.body);
    expect(html).toContain('src="/static/images/products/photobook-exclusive.svg"');
    expect(html).toContain(
      'href="/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&amp;formaat=21x30"',
    );
    const text = textOf(html);
    expect(text).toContain("Exclusief fotoboek Staand, 21x30 cm Prijs per stuk: € 49,99");
    expect(html).toMatch(
      /<input class="form-control" type="number" id="line-1-quantity" name="quantity"[^>]*value="2">/,
    );
    expect(text).toContain("Totaal: € 99,98");
  });

  it("totals a free-shipping order: subtotal, free shipping with its label, the Dutch VAT share, total", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    const text = textOf(main((await s.get(contents)).body));
    expect(text).toContain("Subtotaal € 99,98");
    expect(text).toContain("Verzendkosten naar Nederland Gratis + Gratis verzending");
    expect(text).toContain("Totaal € 99,98");
    // 99.98 includes 21/121 of itself as VAT.
    expect(text).toContain("Waarvan btw (21%) € 17,35");
    expect(text).toContain("In je winkelwagen: 2 artikelen");
  });

  it("charges shipping when nothing in the cart ships free, and says how to get it free", async () => {
    const s = await shopperWith([{ ...prints, quantity: "10" }]);
    const text = textOf(main((await s.get(contents)).body));
    expect(text).toContain("Subtotaal € 2,50");
    expect(text).toContain("Verzendkosten naar Nederland € 4,95");
    expect(text).toContain("Totaal € 7,45");
    expect(text).toContain("Waarvan btw (21%) € 1,29");
    expect(text).toContain("„+ Gratis verzending”");
  });

  it("in German, totals for Germany: German VAT and shipping, German money format", async () => {
    const s = await shopperWith([{ ...prints, quantity: "10" }], produktseite);
    const res = await s.get(inhalt);
    expect(res.body).toContain('<html lang="de"');
    const text = textOf(main(res.body));
    expect(text).toContain("Zwischensumme 2,50 €");
    expect(text).toContain("Versandkosten nach Deutschland 6,95 €");
    expect(text).toContain("Gesamtsumme 9,45 €");
    expect(text).toContain("Darin enthaltene MwSt. (19 %) 1,51 €");
    expect(text).toContain("Klassische Fotoabzüge");
    expect(text).not.toMatch(/Winkelwagen|verzending|Totaal/);
  });

  it("takes VAT and shipping from the delivery country once an address is saved", async () => {
    const s = await shopperWith([{ ...prints, quantity: "10" }]);
    const res = await s.post("/winkelwagen/adres", {
      name: "Anna Schmidt",
      street: "Hauptstraße 5",
      postcode: "10115",
      city: "Berlin",
      country: "DE",
      email: "anna@example.de",
      phone: "",
    });
    expect(res.statusCode).toBe(303);
    const text = textOf(main((await s.get(contents)).body));
    expect(text).toContain("Verzendkosten naar Duitsland € 6,95");
    expect(text).toContain("Waarvan btw (19%) € 1,51");
  });

  it("answers a GET from the ajax behaviour with the cart region only", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const res = await s.get(contents, { "x-requested-with": "XMLHttpRequest" });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("<html");
    expect(res.body).toContain("Exclusief fotoboek");
    expect(res.headers.vary).toMatch(/X-Requested-With/);
  });
});

describe("the tips block", () => {
  it("suggests products that go with the cart, leaving out what is in it, as a carousel when there are many", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const html = main((await s.get(contents)).body);
    const text = textOf(html);
    expect(text).toContain("Onze tips: Leuk bij je bestelling!");
    expect(text).toContain("een of meer van deze producten");
    const tips = html.slice(html.indexOf('class="cart-tips"'));
    expect(tips).toContain('data-island="carousel"');
    const suggested = [...tips.matchAll(/name="product" value="([^"]+)"/g)].map((m) => m[1]);
    expect(suggested).not.toContain("exclusive-photobook");
    // Prints and wall decoration go with a photo book; they take turns, so the first tips differ in kind.
    expect(suggested.slice(0, 2)).toEqual(["classic-prints", "canvas"]);
    expect(suggested).toHaveLength(6);
  });

  it("are a plain list when all of them fit, and change with the cart", async () => {
    const everything = [
      "exclusive-photobook",
      "classic-photobook",
      "classic-prints",
      "photo-enlargement",
      "canvas",
      "poster",
    ];
    const catalogue = loadCatalogue(shop.config.cataloguePath);
    const lines = everything.map((id) => {
      const product = catalogue.products.find((p) => p.id === id);
      const r = product?.recommended;
      return { product: id, orientation: r?.orientation ?? "", size: r?.size ?? "", quantity: "1" };
    });
    const s = await shopperWith(lines);
    const html = main((await s.get(contents)).body);
    const tips = html.slice(html.indexOf('class="cart-tips"'));
    expect(tips).not.toContain('data-island="carousel"');
    const suggested = [...tips.matchAll(/name="product" value="([^"]+)"/g)].map((m) => m[1]);
    expect(suggested).toEqual(["square-photobook", "square-prints", "wall-calendar"]);
  });

  it("adds a tip without JavaScript: back to the cart, where it is a line and no longer a tip", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const res = await s.post(contents, { ...prints, quantity: "1", from: "cart" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(contents);
    expect(await linesOf(s)).toEqual([
      { productId: "exclusive-photobook", orientation: "portrait", sizeId: "21x30", quantity: 1 },
      { productId: "classic-prints", orientation: "landscape", sizeId: "15x10", quantity: 1 },
    ]);
    const tips = main((await s.get(contents)).body).split('class="cart-tips"')[1] ?? "";
    expect(tips).not.toContain('value="classic-prints"');
  });

  it("adds a tip with JavaScript: the cart region comes back with a confirmation and the new count", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const res = await s.post(contents, { ...prints, quantity: "1", from: "cart" }, { ajax: true });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("<html");
    expect(res.body).toContain(
      '<p class="cart-message" role="status">Klassieke fotoafdrukken (Liggend, 15x10 cm) is toegevoegd aan je winkelwagen.</p>',
    );
    expect(res.body).toMatch(/data-island="cart-count" data-count="2"/);
    expect(res.headers["cache-control"]).toBe("private, no-store");
  });
});

describe("changing a quantity", () => {
  it("without JavaScript: sets the new quantity and shows the cart again", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const res = await s.post(contents, { ...portraitBook, quantity: "4", intent: "update" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(contents);
    expect((await linesOf(s))[0]?.quantity).toBe(4);
  });

  it("with JavaScript: answers with the cart region, the new totals and count", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const res = await s.post(contents, { ...portraitBook, quantity: "3", intent: "update" }, { ajax: true });
    expect(res.statusCode).toBe(200);
    const text = textOf(res.body);
    expect(text).toContain("Het aantal van Exclusief fotoboek (Staand, 21x30 cm) is nu 3.");
    expect(text).toContain("Subtotaal € 149,97");
    expect(res.body).toMatch(/data-island="cart-count" data-count="3"/);
  });

  it("refuses a quantity below 1, above 99 or not a whole number, keeping what was typed and the cart", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    for (const [quantity, message] of [
      ["0", "Kies een aantal van 1 tot en met 99."],
      ["100", "Kies een aantal van 1 tot en met 99."],
      ["-1", "Vul hier alleen getallen in."],
      ["1,5", "Vul hier alleen getallen in."],
      ["twee", "Vul hier alleen getallen in."],
      ["", "Dit is een verplicht veld."],
    ] as const) {
      for (const ajax of [false, true]) {
        const res = await s.post(contents, { ...portraitBook, quantity, intent: "update" }, { ajax });
        expect(res.statusCode, quantity).toBe(422);
        const html = ajax ? res.body : main(res.body);
        expect(html).toContain(`value="${quantity}"`);
        expect(html).toMatch(
          new RegExp(`id="line-1-quantity-error"[^>]*>.*${message.replace(/\./g, "\\.")}`),
        );
        // In the summary too, linking to the field.
        expect(html).toContain(`<li><a href="#line-1-quantity">${message}</a></li>`);
      }
    }
    expect((await linesOf(s))[0]?.quantity).toBe(2);
  });

  it("says so when the line is no longer in the cart, for example removed in another tab", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    const res = await s.post(contents, { ...canvas, quantity: "3", intent: "update" });
    expect(res.statusCode).toBe(422);
    expect(textOf(main(res.body))).toContain("Dit artikel zit niet meer in je winkelwagen");
    expect(await linesOf(s)).toHaveLength(1);
  });

  it("with a tampered cart cookie, changes nobody's cart", async () => {
    const victim = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    const attacker = await shopper(shop.app, productPage);
    attacker.cookies.set("cart", `${cartIdOf(victim)}.forged`);
    const res = await attacker.post(contents, { ...portraitBook, quantity: "50", intent: "update" });
    expect(res.statusCode).toBe(422);
    expect((await linesOf(victim))[0]?.quantity).toBe(2);
  });
});

describe("removing a line", () => {
  it("without JavaScript: removes it and shows the cart again", async () => {
    const s = await shopperWith([
      { ...portraitBook, quantity: "1" },
      { ...canvas, quantity: "1" },
    ]);
    const res = await s.post(contents, { ...portraitBook, quantity: "1", intent: "remove" });
    expect(res.statusCode).toBe(303);
    expect((await linesOf(s)).map((l) => l.productId)).toEqual(["canvas"]);
  });

  it("with JavaScript: the region says what went, and shows the empty cart after the last line", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const res = await s.post(contents, { ...portraitBook, quantity: "", intent: "remove" }, { ajax: true });
    expect(res.statusCode).toBe(200);
    const text = textOf(res.body);
    expect(text).toContain("Exclusief fotoboek (Staand, 21x30 cm) is uit je winkelwagen verwijderd.");
    expect(text).toContain("Je winkelwagen is leeg");
    expect(res.body).toMatch(/data-count="0"|0 artikelen/);
  });

  it("of something that is not in the cart changes nothing and is no error", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const res = await s.post(contents, { ...canvas, intent: "remove" });
    expect(res.statusCode).toBe(303);
    expect(await linesOf(s)).toHaveLength(1);
    // With JavaScript the region does not claim a removal that did not happen.
    const ajax = await s.post(contents, { ...canvas, intent: "remove" }, { ajax: true });
    expect(ajax.statusCode).toBe(200);
    expect(textOf(ajax.body)).not.toContain("verwijderd");
  });
});

describe("the cart cookie", () => {
  it("is renewed by every change, so a cart in use never expires", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const cookie = s.cookies.get("cart");
    for (const fields of [
      { ...prints, quantity: "1" },
      { ...prints, quantity: "1", from: "cart" },
      { ...portraitBook, quantity: "3", intent: "update" },
      { ...prints, intent: "remove" },
    ]) {
      const res = await s.post(contents, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(303);
      expect(cartCookie(res), JSON.stringify(fields)).toMatchObject({ value: cookie, maxAge: sixtyDays });
    }
  });

  it("is not renewed by just looking, nor by a change that was refused", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    expect(cartCookie(await s.get(contents))).toBeUndefined();
    const refused = await s.post(contents, { ...canvas, quantity: "1", intent: "update" });
    expect(refused.statusCode).toBe(422);
    expect(cartCookie(refused)).toBeUndefined();
  });
});

describe("abandoned carts", () => {
  it("are deleted when the shop starts, once older than the cookie lives; carts in use stay", async () => {
    const database = openDatabase("sqlite::memory:");
    await migrateToLatest(database);
    const carts = cartRepository(database.db);
    const item = { productId: "canvas", orientation: "landscape", sizeId: "40x30" };
    const abandoned = await carts.create();
    await carts.add(abandoned, item, 1);
    const inUse = await carts.create();
    await carts.add(inUse, item, 1);
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
    await database.db
      .updateTable("carts")
      .set({ updated_at: daysAgo(61) })
      .where("id", "=", abandoned)
      .execute();
    await database.db
      .updateTable("carts")
      .set({ updated_at: daysAgo(59) })
      .where("id", "=", inUse)
      .execute();

    const own = await testShop({ database: { ...database, close: async () => {} } });
    // Closing waits for the clean-up that started with the shop.
    await own.close();
    expect(await carts.exists(abandoned)).toBe(false);
    expect(await carts.lines(inUse)).toHaveLength(1);
    await database.close();
  });
});

describe("a cart cookie that names no cart (expired, cleaned up) or was tampered with", () => {
  const forgeries = (victim: Shopper) => {
    const id = cartIdOf(victim);
    return {
      "a wrong signature": `${id}.${"A".repeat(43)}`,
      "no signature": id,
      "a changed value": `${victim.cookies.get("cart")}x`,
      "a signed id of a cart that is gone": signed(shop.app, "gone-gone-gone-gone-go"),
    };
  };

  it("shows an empty cart of one's own, not someone else's, and no error", async () => {
    const victim = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    for (const [how, forged] of Object.entries(forgeries(victim))) {
      const res = await shop.app.inject({ url: contents, headers: { cookie: `cart=${forged}` } });
      expect(res.statusCode, how).toBe(200);
      expect(textOf(main(res.body)), how).toContain("Je winkelwagen is leeg");
    }
  });

  it("adding starts a cart of one's own and leaves the named cart alone", async () => {
    const victim = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    for (const [how, forged] of Object.entries(forgeries(victim))) {
      const s = await shopper(shop.app, productPage);
      s.cookies.set("cart", forged);
      const res = await s.post(contents, { ...prints, quantity: "1" });
      expect(res.statusCode, how).toBe(303);
      expect(cartIdOf(s), how).not.toBe(cartIdOf(victim));
      expect(await linesOf(s), how).toEqual([
        { productId: "classic-prints", orientation: "landscape", sizeId: "15x10", quantity: 1 },
      ]);
    }
    expect(await linesOf(victim)).toEqual([
      { productId: "exclusive-photobook", orientation: "portrait", sizeId: "21x30", quantity: 2 },
    ]);
  });

  it("adding with JavaScript shows the new cart and its count at once, from the tips and the product page", async () => {
    const victim = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    for (const [how, forged] of Object.entries(forgeries(victim))) {
      const tips = await shopper(shop.app, productPage);
      tips.cookies.set("cart", forged);
      const fromTips = await tips.post(contents, { ...prints, quantity: "3", from: "cart" }, { ajax: true });
      expect(fromTips.statusCode, how).toBe(200);
      expect(textOf(fromTips.body), how).toContain(
        "Klassieke fotoafdrukken (Liggend, 15x10 cm) is toegevoegd",
      );
      expect(textOf(fromTips.body), how).not.toContain("Je winkelwagen is leeg");
      expect(fromTips.body, how).toMatch(/data-island="cart-count" data-count="3"/);
      expect(cartIdOf(tips), how).not.toBe(cartIdOf(victim));

      const product = await shopper(shop.app, productPage);
      product.cookies.set("cart", forged);
      const fromProduct = await product.post(contents, { ...portraitBook, quantity: "4" }, { ajax: true });
      expect(fromProduct.statusCode, how).toBe(200);
      expect(fromProduct.body, how).toMatch(/data-island="cart-count" data-count="4"/);
      expect(fromProduct.body, how).not.toMatch(/data-count="(0|2|6)"/);
    }
    expect((await linesOf(victim))[0]?.quantity).toBe(2);
  });

  it("removing changes nobody's cart and does not claim a removal", async () => {
    const victim = await shopperWith([{ ...portraitBook, quantity: "2" }]);
    for (const [how, forged] of Object.entries(forgeries(victim))) {
      const s = await shopper(shop.app, productPage);
      s.cookies.set("cart", forged);
      const res = await s.post(contents, { ...portraitBook, intent: "remove" });
      expect(res.statusCode, how).toBe(303);
      expect(res.headers.location).toBe(contents);
      const ajax = await s.post(contents, { ...portraitBook, intent: "remove" }, { ajax: true });
      expect(ajax.statusCode, how).toBe(200);
      expect(textOf(ajax.body), how).not.toContain("verwijderd");
    }
    expect((await linesOf(victim))[0]?.quantity).toBe(2);
  });
});

describe("adding with bad input", () => {
  it("an unknown product: a clear message and the cart unchanged, never an error page", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    for (const from of ["cart", ""]) {
      const res = await s.post(contents, { ...portraitBook, product: "no-such-thing", quantity: "1", from });
      expect(res.statusCode).toBe(422);
      expect(textOf(main(res.body))).toContain(
        "Dit product kennen we niet (meer). Je winkelwagen is niet veranderd.",
      );
    }
    expect(await linesOf(s)).toHaveLength(1);
  });

  it("an unknown option or one that cannot be ordered now, from the tips: a message, the cart unchanged", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const unknown = await s.post(contents, { ...canvas, size: "1x1", quantity: "1", from: "cart" });
    expect(unknown.statusCode).toBe(422);
    expect(textOf(main(unknown.body))).toContain("Deze uitvoering kennen we niet (meer).");
    const unavailable = await s.post(contents, { ...canvas, size: "90x60", quantity: "1", from: "cart" });
    expect(unavailable.statusCode).toBe(422);
    expect(textOf(main(unavailable.body))).toContain(
      "Foto op canvas (Liggend, 90x60 cm) is tijdelijk niet leverbaar.",
    );
    expect(await linesOf(s)).toHaveLength(1);
  });

  it("a quantity that would take a line over 99: refused with how many are in the cart already", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "60" }]);
    const fromProduct = await s.post(contents, { ...portraitBook, quantity: "40" });
    expect(fromProduct.statusCode).toBe(422);
    expect(textOf(main(fromProduct.body))).toContain(
      "Van Exclusief fotoboek (Staand, 21x30 cm) kun je maximaal 99 stuks bestellen; er zitten er al 60 in je winkelwagen.",
    );
    expect(fromProduct.body).toContain('value="40"');
    const fromCart = await s.post(
      contents,
      { ...portraitBook, quantity: "40", from: "cart" },
      { ajax: true },
    );
    expect(fromCart.statusCode).toBe(422);
    expect(fromCart.body).toContain("maximaal 99 stuks");
    expect((await linesOf(s))[0]?.quantity).toBe(60);
    const exactly = await s.post(contents, { ...portraitBook, quantity: "39" });
    expect(exactly.statusCode).toBe(303);
    expect((await linesOf(s))[0]?.quantity).toBe(99);
  });

  it("refuses a change without the form's token", async () => {
    const s = await shopperWith([{ ...portraitBook, quantity: "1" }]);
    const res = await shop.app.inject({
      method: "POST",
      url: contents,
      headers: { cookie: s.cookie(), "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ ...portraitBook, quantity: "7", intent: "update" }).toString(),
    });
    expect(res.statusCode).toBe(403);
    expect((await linesOf(s))[0]?.quantity).toBe(1);
  });

  it("shows a line whose size can no longer be ordered, and holds the checkout until it is removed", async () => {
    const carts = cartRepository(shop.database.db);
    const cartId = await carts.create();
    await carts.add(cartId, { productId: "canvas", orientation: "landscape", sizeId: "90x60" }, 1);
    await carts.add(cartId, { productId: "poster", orientation: "portrait", sizeId: "30x40" }, 1);
    const cookie = `cart=${signed(shop.app, cartId)}`;
    const res = await shop.app.inject({ url: contents, headers: { cookie } });
    const text = textOf(main(res.body));
    expect(text).toContain("Dit formaat is tijdelijk niet leverbaar. Verwijder het");
    expect(text).toContain("Subtotaal € 9,99");
    expect(text).not.toContain("Verder naar je adres");
    const address = await shop.app.inject({ url: "/winkelwagen/adres", headers: { cookie } });
    expect(address.statusCode).toBe(303);
    expect(address.headers.location).toBe(contents);
  });
});
