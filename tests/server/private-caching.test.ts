import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { startPhotoBook } from "../support/photos.ts";
import { type Shopper, shopper } from "../support/shopper.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop({
    env: { SIGNUP_RATE_LIMIT: "1000" },
    beforeReady(app) {
      app.get("/stuk", async () => {
        throw new Error("a broken page");
      });
    },
  });
});
afterAll(() => shop.close());

const product = "/assortiment/fotoboeken/exclusief-fotoboek";
const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity: "1" };
const anna = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234ab",
  city: "Utrecht",
  country: "NL",
  email: "anna@example.nl",
  phone: "06 12345678",
};
const gzip = { "accept-encoding": "gzip, deflate, br" };

const varyOf = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

/** Private, and never kept at all: what a page with the shopper's address or cart gets. */
function expectNoStore(res: LightMyRequestResponse, what: string) {
  expect(res.headers["cache-control"], what).toMatch(/^private, (.*, )?no-store/);
  expect(varyOf(res), what).toContain("cookie");
}

function expectPrivate(res: LightMyRequestResponse, what: string) {
  expect(res.headers["cache-control"], what).toMatch(/^private\b/);
  expect(res.headers["cache-control"], what).not.toContain("public");
  expect(varyOf(res), what).toContain("cookie");
}

async function withCart(): Promise<Shopper> {
  const s = await shopper(shop.app, product);
  expect((await s.post("/winkelwagen/inhoud", book)).statusCode).toBe(303);
  return s;
}

describe("a visitor without cookies", () => {
  it("gets a page that shared caches may keep briefly, kept apart from browsers with cookies", async () => {
    const first = await shop.app.inject({ url: product, headers: gzip });
    expect(first.statusCode).toBe(200);
    expect(first.headers["cache-control"]).toBe("public, max-age=30");
    expect(varyOf(first)).toEqual(expect.arrayContaining(["cookie", "accept-encoding"]));
    // The ready answer sent again carries the same policy, Vary merged, never overwritten.
    const again = await shop.app.inject({ url: product, headers: gzip });
    expect(again.headers["cache-control"]).toBe("public, max-age=30");
    expect(varyOf(again)).toEqual(expect.arrayContaining(["cookie", "accept-encoding"]));
  });

  it("gets the same policy from a browser that takes no gzip, and on a page with an ajax fragment", async () => {
    const plain = await shop.app.inject({ url: product });
    expect(plain.headers["cache-control"]).toBe("public, max-age=30");
    expect(varyOf(plain)).toContain("cookie");
    const contact = await shop.app.inject({ url: "/klantenservice/contact", headers: gzip });
    expect(contact.headers["cache-control"]).toBe("public, max-age=30");
    expect(varyOf(contact)).toEqual(
      expect.arrayContaining(["x-requested-with", "accept-encoding", "cookie"]),
    );
  });

  it("gets a 404 that no shared cache keeps", async () => {
    const res = await shop.app.inject({ url: "/bestaat-niet", headers: gzip });
    expect(res.statusCode).toBe(404);
    expect(res.headers["cache-control"]).toBe("private, no-cache");
    expect(varyOf(res)).toContain("cookie");
  });

  it("posts a form whose answer sets a cookie, and that answer is kept nowhere", async () => {
    const page = await shop.app.inject({ url: product });
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? "";
    const res = await shop.app.inject({
      method: "POST",
      url: "/winkelwagen/inhoud",
      headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
      payload: new URLSearchParams({ _csrf: token, ...book }).toString(),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers["set-cookie"]).toBeDefined();
    expectNoStore(res, "the 303 after adding to a new cart");
  });

  it("still gets the shop's files as public, without a Vary on cookies", async () => {
    const res = await shop.app.inject({ url: "/static/css/base.css" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    expect(varyOf(res)).not.toContain("cookie");
  });
});

describe("a shopper with a cart", () => {
  it("gets the same page as everyone marked private", async () => {
    const s = await withCart();
    const res = await s.get(product, gzip);
    expect(res.statusCode).toBe(200);
    expectPrivate(res, "the product page with a cart");
    expect(varyOf(res)).toContain("accept-encoding");
  });

  it("gets the cart, its address and overview steps, and the thank-you page as private and never stored", async () => {
    const s = await withCart();
    expectNoStore(await s.get("/winkelwagen/inhoud", gzip), "the cart");
    // Sent again as a ready answer: the kept headers say the same.
    expectNoStore(await s.get("/winkelwagen/inhoud", gzip), "the cart, kept");
    expectNoStore(await s.get("/winkelwagen/adres", gzip), "the address step");
    const address = await s.post("/winkelwagen/adres", anna);
    expect(address.statusCode).toBe(303);
    expectNoStore(address, "the 303 after the address");
    const overview = await s.get("/winkelwagen/overzicht");
    expectNoStore(overview, "the overview");
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(overview.body)?.[1] ?? "";
    const placed = await s.post("/winkelwagen/overzicht", {
      orderKey: field("orderKey"),
      fingerprint: field("fingerprint"),
    });
    expect(placed.statusCode).toBe(303);
    expectNoStore(placed, "the 303 after placing the order");
    const thanks = await s.get(placed.headers.location as string, gzip);
    expect(thanks.statusCode).toBe(200);
    expectNoStore(thanks, "the order's thank-you page");
  });

  it("gets the header's new count after an ajax add as private and never stored", async () => {
    const s = await withCart();
    const res = await s.post("/winkelwagen/inhoud", book, { ajax: true });
    expect(res.statusCode).toBe(200);
    expectNoStore(res, "the ajax add's answer with the cart count");
  });

  it("gets a 404 and an error page marked private", async () => {
    const s = await withCart();
    const missing = await s.get("/bestaat-niet", gzip);
    expect(missing.statusCode).toBe(404);
    expectPrivate(missing, "the 404");
    const broken = await s.get("/stuk", gzip);
    expect(broken.statusCode).toBe(500);
    expectPrivate(broken, "the 500");
  });

  it("gets the contact form's thank-you page, which names their address, as private", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get("/klantenservice/contact");
    const sent = await browser.form("/klantenservice/contact", {
      name: "Anna de Vries",
      email: "anna@example.nl",
      orderNumber: "",
      subject: "delivery",
      question: "Waar blijft mijn fotoboek? Ik heb het vorige week besteld.",
      website: "",
    });
    expect(sent.statusCode).toBe(303);
    expectNoStore(sent, "the contact form's 303");
    const thanks = await browser.follow(sent);
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain("anna@example.nl");
    expectNoStore(thanks, "the contact thank-you page");
  });
});

describe("a shopper with photos and a subscription", () => {
  it("gets the editor, the uploads list, a photo file and the subscription's welcome as private", async () => {
    const browser = new BrowserSession(shop.app);
    const started = await startPhotoBook(browser);
    expect(started.statusCode).toBe(303);
    expectNoStore(started, "the 303 after starting a project");
    const project = await browser.get(started.headers.location as string, gzip);
    expect(project.statusCode).toBe(200);
    expectNoStore(project, "the editor's project");

    const uploads = await browser.get("/abonnement");
    expect(uploads.body).toContain("strand.jpg");
    expectNoStore(uploads, "the subscription page with the uploads list");

    const thumbnail = /src="(\/uploads\/[\w-]+\/thumbnail\.jpg)"/.exec(uploads.body)?.[1];
    expect(thumbnail).toBeDefined();
    const photo = await browser.get(thumbnail as string);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers["cache-control"]).toBe("private, max-age=604800, immutable");
    expect(varyOf(photo)).toContain("cookie");

    const signedUp = await browser.form("/abonnement/aanmelden", {
      plan: "plus",
      country: "NL",
      name: "Anna de Vries",
      email: "anna.caching@example.nl",
      password: "Zomer aan zee 2026!",
      passwordConfirm: "Zomer aan zee 2026!",
    });
    expect(signedUp.statusCode).toBe(303);
    expectNoStore(signedUp, "the 303 after signing up");
    const welcome = await browser.follow(signedUp);
    expect(welcome.statusCode).toBe(200);
    expectNoStore(welcome, "the subscription's welcome");
  });
});
