// What the soak's shoppers do, each journey as a person would click through it without
// JavaScript (and the photo uploader as its island does). Every step says what answer it
// expects; anything else ends the journey as Unexpected.
import { type Browser, type Page, Unexpected } from "./browser.ts";
import type { Tally } from "./tally.ts";

export interface JourneyContext {
  tally: Tally;
  /** A small JPEG, made once. */
  photo: Blob;
  /** An address no other message of this run uses, to find the message afterwards. */
  uniqueEmail(): string;
}

export interface Journey {
  name: string;
  /** How often it is picked, relative to the others. */
  weight: number;
  /** Whether the shopper comes back as a new visitor (fresh cookies) afterwards. */
  freshAfter: boolean;
  run(browser: Browser, context: JourneyContext): Promise<void>;
}

const products = [
  {
    path: "/assortiment/fotoboeken/exclusief-fotoboek",
    fields: { product: "exclusive-photobook", orientation: "portrait", size: "21x30" },
  },
  {
    path: "/assortiment/fotoafdrukken/klassieke-fotoafdrukken",
    fields: { product: "classic-prints", orientation: "landscape", size: "15x10" },
  },
  {
    path: "/assortiment/wanddecoratie/foto-op-canvas",
    fields: { product: "canvas", orientation: "landscape", size: "40x30" },
  },
  {
    path: "/assortiment/wanddecoratie/fotoposter",
    fields: { product: "poster", orientation: "portrait", size: "30x40" },
  },
];

const browsingPages = [
  "/",
  "/de",
  "/assortiment/fotoboeken",
  "/assortiment/fotoafdrukken",
  "/assortiment/wanddecoratie",
  ...products.map((p) => p.path),
  "/sortiment/fotobuecher/exklusives-fotobuch",
  "/klantenservice",
  "/klantenservice/faq/overzicht",
  "/klantenservice/faq/levering/feestdagen",
  "/klantenservice/levertijden",
  "/klantenservice/zoeken?q=levertijd",
  "/klantenservice/zoeken?q=factuur",
  "/kundenservice/suche?q=Rechnung",
  "/abonnement",
];

const cart = {
  contents: "/winkelwagen/inhoud",
  address: "/winkelwagen/adres",
  overview: "/winkelwagen/overzicht",
};
const contact = { form: "/klantenservice/contact", thanks: "/klantenservice/contact/bedankt" };
const editor = {
  start: "/fotoboek-maken",
  startFor: "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30",
  upload: "/fotoboek-maken/fotos",
  project: /^\/fotoboek-maken\/project\/[\w-]{22}$/,
};

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

function expectAnswer(page: Page, status: number, step: string, location?: RegExp): Page {
  if (page.status !== status || (location && !location.test(page.location))) {
    const where = page.location ? ` → ${page.location}` : "";
    throw new Unexpected(`${step}: ${page.instance} answered ${page.status}${where}, expected ${status}`);
  }
  return page;
}

/** A redirect's path and query: the next request goes to whichever instance's turn it is. */
const pathOf = (location: string) => {
  const url = new URL(location, "http://localhost");
  return `${url.pathname}${url.search}`;
};

const hiddenValue = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";

async function addToCart(browser: Browser): Promise<void> {
  const product = pick(products);
  expectAnswer(await browser.get(product.path), 200, "product page");
  const quantity = String(between(1, 3));
  expectAnswer(await browser.form(cart.contents, { ...product.fields, quantity }), 303, "add to cart");
}

const browse: Journey = {
  name: "browse",
  weight: 45,
  freshAfter: false,
  async run(browser) {
    for (let i = between(3, 6); i > 0; i--) {
      const path = pick(browsingPages);
      expectAnswer(await browser.get(path), 200, `browse ${path}`);
    }
  },
};

/** Adds something, looks at the cart and leaves it for another time. */
const fillCart: Journey = {
  name: "add to cart",
  weight: 10,
  freshAfter: false,
  async run(browser) {
    await addToCart(browser);
    expectAnswer(await browser.get(cart.contents), 200, "cart");
  },
};

const checkout: Journey = {
  name: "checkout",
  weight: 20,
  freshAfter: true,
  async run(browser, { tally, uniqueEmail }) {
    await addToCart(browser);
    expectAnswer(await browser.get(cart.contents), 200, "cart");
    expectAnswer(await browser.get(cart.address), 200, "address step");
    const address = {
      name: "Anna de Vries",
      street: "Dorpsstraat 12",
      postcode: "1234ab",
      city: "Utrecht",
      country: "NL",
      email: uniqueEmail(),
      phone: "06 12345678",
    };
    expectAnswer(await browser.form(cart.address, address), 303, "address");
    const overview = expectAnswer(await browser.get(cart.overview), 200, "overview");
    const place = {
      orderKey: hiddenValue(overview.body, "orderKey"),
      fingerprint: hiddenValue(overview.body, "fingerprint"),
    };
    // Placing the order goes to the payment page (the built-in test provider's), which
    // sends the shopper back to the order's page, its secret in the address.
    const placed = expectAnswer(
      await browser.form(cart.overview, place),
      303,
      "place order",
      /\/testbetaling\/[\w-]+$/,
    );
    const paymentPage = pathOf(placed.location);
    expectAnswer(await browser.get(paymentPage), 200, "test payment page");
    const paid = expectAnswer(
      await browser.form(paymentPage, { outcome: "paid" }),
      303,
      "pay",
      /\/bestelling\/\d+\?code=[\w-]+$/,
    );
    const orderPage = pathOf(paid.location);
    const number = /\/bestelling\/(\d+)/.exec(orderPage)?.[1] ?? "";
    tally.ordersPlaced.add(number);
    const thanks = expectAnswer(await browser.get(orderPage), 200, "thank-you page");
    if (!thanks.body.includes(number)) throw new Unexpected(`thank-you page without its number ${number}`);
    tally.ordersConfirmed.add(number);
  },
};

/** Without JavaScript (redirect to the thank-you page) or with it (the thanks in the form's place). */
const contactForm: Journey = {
  name: "contact",
  weight: 10,
  freshAfter: false,
  async run(browser, { tally, uniqueEmail }) {
    expectAnswer(await browser.get(contact.form), 200, "contact form");
    const email = uniqueEmail();
    const message = {
      name: "Anna de Vries",
      email,
      orderNumber: "FH-123456",
      subject: "delivery",
      question: "Wanneer komt mijn fotoboek? Ik heb het vorige week besteld.",
      website: "",
    };
    if (Math.random() < 0.5) {
      const sent = await browser.form(contact.form, message, { ajax: true });
      expectAnswer(sent, 200, "contact form (ajax)");
      if (!sent.body.includes(email)) throw new Unexpected("contact form (ajax): no thanks for the address");
      tally.messagesAccepted.add(email);
    } else {
      expectAnswer(await browser.form(contact.form, message), 303, "contact form", /\/bedankt$/);
      tally.messagesAccepted.add(email);
      expectAnswer(await browser.get(contact.thanks), 200, "contact thank-you page");
    }
  },
};

/** The enhanced uploader: one photo per request, then (sometimes) a photo book made of them. */
const uploadPhotos: Journey = {
  name: "upload",
  weight: 15,
  freshAfter: false,
  async run(browser, { tally, photo }) {
    expectAnswer(await browser.get(editor.startFor), 200, "editor start");
    const ids: string[] = [];
    for (let i = between(1, 2); i > 0; i--) {
      const form = new FormData();
      form.append("photo", photo, `vakantie-${i}.jpg`);
      const staged = expectAnswer(
        await browser.multipart(editor.upload, form, {
          "x-requested-with": "XMLHttpRequest",
          "x-csrf-token": browser.token,
        }),
        200,
        "photo upload",
      );
      const id = hiddenValue(staged.body, "upload");
      if (!id) throw new Unexpected("photo upload: no upload id in the answer");
      tally.photosAccepted.add(id);
      ids.push(id);
    }
    if (Math.random() < 0.5) return;
    const form = new FormData();
    form.append("_csrf", browser.token);
    form.append("product", "exclusive-photobook");
    form.append("format", "portrait:21x30");
    for (const id of ids) form.append("upload", id);
    const made = expectAnswer(
      await browser.multipart(editor.start, form),
      303,
      "start project",
      editor.project,
    );
    expectAnswer(await browser.get(made.location), 200, "project page");
  },
};

export const journeys: readonly Journey[] = [browse, fillCart, checkout, contactForm, uploadPhotos];

export function pickJourney(): Journey {
  const total = journeys.reduce((sum, j) => sum + j.weight, 0);
  let at = Math.random() * total;
  for (const journey of journeys) {
    at -= journey.weight;
    if (at < 0) return journey;
  }
  return browse;
}
