import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeFromOverview } from "../support/accounts.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { multipart, type Part, photos } from "../support/photos.ts";
import { freePort } from "../support/shop-process.ts";

/**
 * What an attacker types into every form and query the shop shows back: markup, quotes that
 * would end an attribute, and the syntax of template languages (ours and others').
 */
const attacks = {
  script: "<script>alert(1)</script>",
  image: "<img src=x onerror=alert(1)>",
  doubleQuote: '" autofocus onfocus=alert(1) x="',
  singleQuote: "' autofocus onfocus=alert(1) x='",
  eta: "<%= it.secret %>",
  mustache: "{{7*7}}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a JavaScript template's syntax, typed as text, is the attack.
  literal: "${7*7}",
};
const everything = Object.values(attacks).join(" ");
/** An address the e-mail rule accepts (WHATWG allows ' { } * $ before the @) that is still an attack. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: as above.
const evilEmail = "o'neil{{7*7}}${7*7}@example.nl";

/** HTML's five special characters as a page writes them; written out here, not borrowed from the shop. */
const entities: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
const escaped = (text: string) => text.replace(/[&<>"']/g, (c) => entities[c] ?? c);

/**
 * JSON for islands sits in <script type="application/json"> elements, where quotes are
 * JSON's business and "<" is written \u003c: checked on its own (jsonIsInert), and left
 * out of the search for raw payloads in the HTML.
 */
const jsonScripts = /(<script type="application\/(?:ld\+)?json"[^>]*>)([\s\S]*?)(<\/script>)/g;
const outsideJson = (html: string) => html.replace(jsonScripts, "$1$3");
function jsonIsInert(html: string) {
  for (const [, , json = ""] of html.matchAll(jsonScripts)) expect(json).not.toContain("<");
}

/**
 * No payload appears anywhere as it was typed (the shop itself writes none of them), and each
 * value the shopper typed is there, escaped: shown, as text.
 */
function expectEscaped(html: string, typed: readonly string[], where: string) {
  const page = outsideJson(html);
  for (const attack of Object.values(attacks)) {
    if (escaped(attack) !== attack) expect(page, `${where}: ${attack}`).not.toContain(attack);
  }
  for (const value of typed) expect(page, `${where}: ${value}`).toContain(escaped(value));
  jsonIsInert(html);
}

/** A text mail has no markup to run: the text is there as typed, and template syntax is not evaluated. */
function expectTextMail(
  mail: { text_body: string; html_body: string | null; subject: string },
  typed: string[],
) {
  expect(mail.html_body).toBeNull();
  for (const value of typed) expect(mail.text_body).toContain(value);
  for (const value of typed) expect(mail.subject).not.toContain(value);
}

let shop: TestShop;
beforeAll(async () => {
  // The shop listens at the address it gives the test payment provider, which calls its webhook.
  const port = await freePort();
  // Every post here comes from one address: the limits have tests of their own.
  shop = await testShop({
    env: {
      CONTACT_RATE_LIMIT: "1000",
      SIGNUP_RATE_LIMIT: "1000",
      PATTERN_LIBRARY: "true",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PAYMENT_PROVIDER: "test",
    },
  });
  await shop.app.listen({ port, host: "127.0.0.1" });
});
afterAll(() => shop.close());

const outbox = (to: string) =>
  shop.database.db.selectFrom("outbox").selectAll().where("to_address", "=", to).orderBy("id").execute();
const ajax = { "x-requested-with": "XMLHttpRequest" };

async function browserOn(page: string): Promise<BrowserSession> {
  const browser = new BrowserSession(shop.app);
  expect((await browser.get(page)).statusCode).toBe(200);
  return browser;
}

describe("the checkout's address", () => {
  const product = "/assortiment/fotoboeken/exclusief-fotoboek";
  const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30", quantity: "1" };

  async function withCart() {
    const browser = await browserOn(product);
    expect((await browser.form("/winkelwagen/inhoud", book)).statusCode).toBe(303);
    await browser.get("/winkelwagen/adres");
    return browser;
  }

  it("an attacker who posts markup, quotes and template syntax in every field gets the form back with all of it escaped", async () => {
    const browser = await withCart();
    const typed = {
      name: attacks.script + attacks.mustache,
      street: `${attacks.image} 12`,
      postcode: '"><b>1234',
      city: attacks.doubleQuote,
      country: "NL",
      email: `${attacks.singleQuote}@`,
      phone: attacks.eta + attacks.literal,
    };
    for (const headers of [{}, ajax]) {
      const res = await browser.form("/winkelwagen/adres", typed, headers);
      expect(res.statusCode).toBe(422);
      expectEscaped(res.body, Object.values(typed), "address 422");
    }
  });

  it("a shopper whose valid address holds markup sees it as text on the overview and the order page, and as typed in the mail after paying", async () => {
    const browser = await withCart();
    const address = {
      name: attacks.script + attacks.mustache,
      street: `${attacks.image} 12`,
      postcode: "1234 AB",
      city: attacks.doubleQuote,
      country: "NL",
      email: evilEmail,
      phone: "06 12345678",
    };
    expect((await browser.form("/winkelwagen/adres", address)).statusCode).toBe(303);
    const shown = [address.name, address.street, address.city, address.email];

    expectEscaped((await browser.get("/winkelwagen/adres")).body, shown, "address form again");
    const overview = await browser.get("/winkelwagen/overzicht");
    expect(overview.statusCode).toBe(200);
    expectEscaped(overview.body, shown, "overview");
    const placed = await placeFromOverview(browser, overview);
    expect(placed.statusCode).toBe(303);
    // On to the test provider's payment page (an absolute URL, followed as its path); no mail yet.
    const pathOf = (res: LightMyRequestResponse) => {
      // With its query: the order page's holds the order's own secret.
      const url = new URL(String(res.headers.location), "http://x");
      return `${url.pathname}${url.search}`;
    };
    const testPage = pathOf(placed);
    expect(testPage).toMatch(/^\/testbetaling\/tp_[\w-]+$/);
    expect(await outbox(evilEmail)).toEqual([]);
    expect((await browser.get(testPage)).statusCode).toBe(200);
    const paid = await browser.form(testPage, { outcome: "paid" });
    expect(paid.statusCode).toBe(303);
    const orderPage = await browser.get(pathOf(paid));
    expect(orderPage.statusCode).toBe(200);
    expect(orderPage.body).toContain("Betaald");
    expectEscaped(orderPage.body, [address.name, address.street, address.city, address.email], "order page");

    const [mail, ...more] = await outbox(evilEmail);
    expect(more).toEqual([]);
    expect(mail?.kind).toBe("order-confirmation");
    expectTextMail(mail as NonNullable<typeof mail>, [address.name, address.street, address.city]);
  });
});

describe("the contact form", () => {
  const form = "/klantenservice/contact";
  const question = `Waar blijft mijn fotoboek? ${everything}`;

  it("an attacker whose message is refused gets every value back escaped, with and without JavaScript", async () => {
    const browser = await browserOn(form);
    const typed = {
      name: attacks.script + attacks.singleQuote,
      email: `${attacks.doubleQuote}@`,
      orderNumber: attacks.image,
      subject: "order",
      question: `${attacks.eta} ${attacks.mustache} ${attacks.literal}`,
      website: "",
    };
    for (const headers of [{}, ajax]) {
      const res = await browser.form(form, typed, headers);
      expect(res.statusCode).toBe(422);
      expectEscaped(res.body, [typed.name, typed.email, typed.orderNumber, typed.question], "contact 422");
    }
  });

  it("a message full of markup is thanked with the address escaped, and reaches both mails as plain text", async () => {
    const browser = await browserOn(form);
    const name = attacks.script + attacks.mustache;
    const sent = await browser.form(form, {
      name,
      email: evilEmail,
      subject: "delivery",
      question,
      website: "",
    });
    expect(sent.statusCode).toBe(303);
    const thanks = await browser.follow(sent);
    expect(thanks.statusCode).toBe(200);
    expectEscaped(thanks.body, [evilEmail], "contact thanks");

    const again = await browserOn(form);
    const enhanced = await again.form(
      form,
      { name, email: evilEmail, subject: "other", question, website: "" },
      ajax,
    );
    expect(enhanced.statusCode).toBe(200);
    expectEscaped(enhanced.body, [evilEmail], "contact thanks fragment");

    const copies = (await outbox(evilEmail)).filter((m) => m.kind === "contact-copy");
    const support = await shop.database.db
      .selectFrom("outbox")
      .selectAll()
      .where("kind", "=", "contact-support")
      .where("reply_to", "=", evilEmail)
      .execute();
    expect(copies.map((m) => m.kind)).toEqual(["contact-copy", "contact-copy"]);
    expect(support).toHaveLength(2);
    for (const mail of [...copies, ...support]) expectTextMail(mail, [name, question]);
  });
});

describe("the subscription sign-up", () => {
  const page = "/abonnement";
  const signup = "/abonnement/aanmelden";
  const password = "Zomer aan zee 2026!";

  it("an attacker whose sign-up is refused gets name and address back escaped, and never the password", async () => {
    const browser = await browserOn(page);
    const typed = {
      plan: "plus",
      country: "NL",
      name: attacks.image + attacks.doubleQuote,
      email: attacks.script + attacks.eta,
      password: attacks.singleQuote,
      passwordConfirm: attacks.mustache,
    };
    for (const headers of [{}, ajax]) {
      const res = await browser.form(signup, typed, headers);
      expect(res.statusCode).toBe(422);
      expectEscaped(res.body, [typed.name, typed.email], "sign-up 422");
      expect(res.body).not.toContain(escaped(attacks.singleQuote));
    }
  });

  it("a subscriber whose name is markup is welcomed with it escaped, and the mail has it as typed", async () => {
    const browser = await browserOn(page);
    const name = attacks.script + attacks.literal;
    const email = "markup-name@example.nl";
    const res = await browser.form(signup, {
      plan: "plus",
      country: "NL",
      name,
      email,
      password,
      passwordConfirm: password,
    });
    expect(res.statusCode).toBe(303);
    const welcome = await browser.follow(res);
    expect(welcome.statusCode).toBe(200);
    expectEscaped(welcome.body, [name], "welcome page");

    const other = await browserOn(page);
    const enhanced = await other.form(
      signup,
      {
        plan: "basis",
        country: "NL",
        name,
        email: "markup-ajax@example.nl",
        password,
        passwordConfirm: password,
      },
      ajax,
    );
    expect(enhanced.statusCode).toBe(200);
    expectEscaped(enhanced.body, [name], "welcome fragment");

    const [mail] = await outbox(email);
    expect(mail?.kind).toBe("subscription-confirm");
    expectTextMail(mail as NonNullable<typeof mail>, [name]);
    // The link's page names the subscriber too.
    const link = new URL(/http\S+\/abonnement\/bevestigen\/\S+/.exec(mail?.text_body ?? "")?.[0] ?? "");
    const confirm = await browser.get(link.pathname);
    expect(confirm.statusCode).toBe(200);
    expectEscaped(confirm.body, [name], "sign-up link's page");
  });
});

describe("an account", () => {
  it("whose name is markup is shown it escaped on every page of its own, and the mails have it as typed", async () => {
    const name = attacks.image + attacks.eta;
    const email = "markup-account@example.nl";
    const browser = await browserOn("/account/aanmaken");
    const refused = await browser.form("/account/aanmaken", { name, email: attacks.script, password: "x" });
    expect(refused.statusCode).toBe(422);
    expectEscaped(refused.body, [name, attacks.script], "account form 422");

    const password = "Zomer aan zee 2026!";
    await browser.form("/account/aanmaken", { name, email, password, passwordConfirm: password });
    const [mail] = await outbox(email);
    expectTextMail(mail as NonNullable<typeof mail>, [name]);
    const link = new URL(/http\S+\/account\/bevestigen\/\S+/.exec(mail?.text_body ?? "")?.[0] ?? "").pathname;
    expectEscaped((await browser.get(link)).body, [name], "account link's page");
    await browser.form(link, {});
    expectEscaped((await browser.get("/account")).body, [name], "account page");
    const signIn = await browserOn("/inloggen");
    const wrong = await signIn.form("/inloggen", {
      email: attacks.doubleQuote,
      password: attacks.singleQuote,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).not.toContain(escaped(attacks.singleQuote));
  });
});

describe("the pattern library's forms", () => {
  const library = "/patroonbibliotheek";

  it("an attacker who fills every rule's field with payloads gets the rules form back escaped", async () => {
    const browser = await browserOn(library);
    const names = [
      "required",
      "email",
      "url",
      "date",
      "number",
      "digits",
      "creditcard",
      "original",
      "repeat",
      "minlength",
      "maxlength",
      "rangelength",
      "min",
      "max",
      "range",
      "regex",
      "postcode",
    ];
    const list = Object.values(attacks);
    const typed = Object.fromEntries(names.map((name, i) => [name, list[i % list.length] ?? ""]));
    for (const headers of [{}, ajax]) {
      const res = await browser.form(
        "/patroonbibliotheek/regels",
        { ...typed, country: "NL", password: attacks.script },
        headers,
      );
      expect(res.statusCode).toBe(422);
      expectEscaped(res.body, Object.values(typed), "rules 422");
    }
  });

  it("the example form and the greeting show what was typed escaped, refused or answered", async () => {
    const browser = await browserOn(library);
    const typed = {
      name: attacks.script + attacks.singleQuote,
      email: attacks.doubleQuote,
      country: "NL",
      postcode: attacks.eta,
      password: "kort",
      passwordConfirm: "anders",
    };
    for (const headers of [{}, ajax]) {
      const res = await browser.form("/patroonbibliotheek/formulier", typed, headers);
      expect(res.statusCode).toBe(422);
      expectEscaped(res.body, [typed.name, typed.email, typed.postcode], "example form 422");
    }

    const name = attacks.image + attacks.mustache;
    const greeted = await browser.form("/patroonbibliotheek/groet", { name, action: "save" }, ajax);
    expect(greeted.statusCode).toBe(200);
    expectEscaped(greeted.body, [name], "greeting fragment");
    // Without JavaScript the name travels in the address of the page the post leads to.
    const redirected = await browser.form("/patroonbibliotheek/groet", { name, action: "check" });
    expect(redirected.statusCode).toBe(303);
    expectEscaped((await browser.follow(redirected)).body, [name], "greeting page");
    const thanked = await browser.get(`${library}?${new URLSearchParams({ thanks: attacks.doubleQuote })}`);
    expectEscaped(thanked.body, [attacks.doubleQuote], "example form thanks");
  });
});

describe("the support search", () => {
  it.each(Object.entries(attacks))(
    "a visitor who searches for %s sees it escaped in the title, the field and the text",
    async (_kind, query) => {
      for (const path of ["/klantenservice/zoeken", "/kundenservice/suche"]) {
        const res = await shop.app.inject({ url: `${path}?${new URLSearchParams({ q: query })}` });
        expect(res.statusCode).toBe(200);
        expectEscaped(res.body, [query], `search ${path}`);
        expect(res.body).toContain(`value="${escaped(query)}"`);
        expect(/<title>([^<]*)<\/title>/.exec(res.body)?.[1]).toContain(escaped(query));
      }
    },
  );
});

describe("the photo editor's forms", () => {
  const startFor = "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30";
  // A file name cannot hold a slash or a double quote; markup, a single quote and template syntax it can.
  const photoName = `${attacks.image}${attacks.mustache}'.jpg`;
  const textName = `${attacks.eta}${attacks.literal}'.jpg`;

  async function post(browser: BrowserSession, url: string, fields: Part[], files: Part["file"][]) {
    return browser.post(
      url,
      multipart([
        { name: "_csrf", value: browser.token },
        ...fields,
        ...files.map((file) => ({ name: "photos", file })),
      ]),
    );
  }

  it("a shopper whose photos have markup for names sees them escaped: refused start, project, uploads tab and removal", async () => {
    const browser = await browserOn(startFor);
    const photo = { filename: photoName, data: await photos.jpeg(), type: "image/jpeg" };
    const notPhoto = { filename: textName, data: await photos.textAsJpeg(), type: "image/jpeg" };

    // An unknown format: the form comes back (422) with the photo kept and the refused file named.
    const refused = await post(
      browser,
      "/fotoboek-maken",
      [
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: attacks.doubleQuote },
      ],
      [photo, notPhoto],
    );
    expect(refused.statusCode).toBe(422);
    expectEscaped(refused.body, [photoName, textName], "editor start 422");
    const staged = /name="upload" value="([\w-]{22})"/.exec(refused.body)?.[1] ?? "";
    expect(staged).not.toBe("");

    const started = await post(
      browser,
      "/fotoboek-maken",
      [
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:21x30" },
        { name: "upload", value: staged },
      ],
      [notPhoto],
    );
    expect(started.statusCode).toBe(303);
    const projectUrl = started.headers.location as string;
    expectEscaped((await browser.follow(started)).body, [photoName, textName], "project page");

    const added = await post(browser, `${projectUrl}/fotos`, [], [notPhoto]);
    expect(added.statusCode).toBe(303);
    expectEscaped((await browser.follow(added)).body, [textName], "project page after adding");

    const tab = await browser.get("/abonnement");
    expectEscaped(tab.body, [photoName], "uploads tab");

    const removed = await browser.form("/fotoboek-maken/fotos/verwijderen", { remove: staged });
    expect(removed.statusCode).toBe(303);
    expectEscaped((await browser.follow(removed)).body, [photoName], "after removing");
  });

  it("the enhanced uploader answers a photo, and a refused file, with the name escaped", async () => {
    const browser = await browserOn(startFor);
    const headers = { ...ajax, "x-csrf-token": browser.token };
    for (const [file, status] of [
      [{ filename: photoName, data: await photos.jpeg(), type: "image/jpeg" }, 200],
      [{ filename: textName, data: await photos.textAsJpeg(), type: "image/jpeg" }, 422],
    ] as const) {
      const res = await browser.post("/fotoboek-maken/fotos", multipart([{ name: "photo", file }]), headers);
      expect(res.statusCode, file.filename).toBe(status);
      expectEscaped(res.body, [file.filename], `uploader ${status}`);
    }
  });

  it("a shopper who types markup as the book's quantity gets the project page back with it escaped", async () => {
    const browser = await browserOn(startFor);
    const started = await post(
      browser,
      "/fotoboek-maken",
      [
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:21x30" },
      ],
      [{ filename: "strand.jpg", data: await photos.jpeg(), type: "image/jpeg" }],
    );
    const project = (started.headers.location as string).split("/").pop() ?? "";
    await browser.follow(started);
    const quantity = attacks.doubleQuote + attacks.script;
    const res = await browser.form("/winkelwagen/inhoud", { project, quantity });
    expect(res.statusCode).toBe(422);
    expectEscaped(res.body, [quantity], "project cart 422");
  });
});

describe("the cart's quantity fields", () => {
  const product = "/assortiment/fotoboeken/exclusief-fotoboek";
  const book = { product: "exclusive-photobook", orientation: "portrait", size: "21x30" };

  it("an attacker who types markup as a quantity on the product page or in the cart gets it back escaped", async () => {
    const browser = await browserOn(product);
    const quantity = attacks.singleQuote + attacks.image;
    const checks: Array<[string, LightMyRequestResponse]> = [];
    for (const headers of [{}, ajax]) {
      checks.push([
        "product page",
        await browser.form("/winkelwagen/inhoud", { ...book, quantity }, headers),
      ]);
    }
    expect((await browser.form("/winkelwagen/inhoud", { ...book, quantity: "1" })).statusCode).toBe(303);
    for (const headers of [{}, ajax]) {
      checks.push([
        "cart line",
        await browser.form("/winkelwagen/inhoud", { ...book, quantity, intent: "update" }, headers),
      ]);
    }
    for (const [where, res] of checks) {
      expect(res.statusCode, where).toBe(422);
      expectEscaped(res.body, [quantity], where);
    }
  });
});
