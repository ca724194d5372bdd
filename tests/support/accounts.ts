import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { Kysely } from "kysely";
import type { Schema } from "../../server/store/schema.ts";
import { BrowserSession } from "./browser-session.ts";
import { signupLinkPath } from "./subscriptions.ts";

export const password = "Zomer aan zee 2026!";

export const accountPaths = {
  nl: {
    signIn: "/inloggen",
    signOut: "/uitloggen",
    create: "/account/aanmaken",
    mailSent: "/account/e-mail-verstuurd",
    account: "/account",
    orders: "/account/bestellingen",
    photos: "/account/fotos",
    subscription: "/account/abonnement",
    addresses: "/account/adressen",
    settings: "/account/gegevens",
    password: "/account/wachtwoord",
    email: "/account/e-mailadres",
    everywhere: "/account/overal-uitloggen",
    privacy: "/account/privacy",
    export: "/account/privacy/mijn-gegevens.json",
    delete: "/account/verwijderen",
    forgotten: "/wachtwoord-vergeten",
  },
  de: {
    signIn: "/anmelden",
    signOut: "/abmelden",
    create: "/konto/erstellen",
    mailSent: "/konto/e-mail-gesendet",
    account: "/konto",
    orders: "/konto/bestellungen",
    photos: "/konto/fotos",
    subscription: "/konto/abo",
    addresses: "/konto/adressen",
    settings: "/konto/daten",
    password: "/konto/passwort",
    email: "/konto/e-mail-adresse",
    everywhere: "/konto/ueberall-abmelden",
    privacy: "/konto/datenschutz",
    export: "/konto/datenschutz/meine-daten.json",
    delete: "/konto/loeschen",
    forgotten: "/passwort-vergessen",
  },
} as const;

export type Lang = keyof typeof accountPaths;

/** The text of the page's main part, tags gone and white space folded. */
export const mainText = (res: LightMyRequestResponse) =>
  (/<main[\s\S]*<\/main>/.exec(res.body)?.[0] ?? res.body)
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&gt;/g, ">")
    .replace(/&lt;/g, "<")
    .replace(/\s+/g, " ")
    .trim();

/** Asks for an account in a fresh browser; answers that browser and the link from the mail. */
export async function askForAccount(
  app: FastifyInstance,
  db: Kysely<Schema>,
  fields: { email: string; name?: string; password?: string },
  lang: Lang = "nl",
): Promise<{ browser: BrowserSession; res: LightMyRequestResponse; link: string | undefined }> {
  const browser = new BrowserSession(app);
  await browser.get(accountPaths[lang].create);
  const secret = fields.password ?? password;
  const res = await browser.form(accountPaths[lang].create, {
    name: fields.name ?? "Anna de Vries",
    email: fields.email,
    password: secret,
    passwordConfirm: secret,
  });
  return { browser, res, link: await signupLinkPath(db, fields.email, "account-confirm") };
}

/** An account made as a shopper makes one, its browser signed in to it. */
export async function signedUp(
  app: FastifyInstance,
  db: Kysely<Schema>,
  fields: { email: string; name?: string; password?: string },
  lang: Lang = "nl",
): Promise<BrowserSession> {
  const { browser, link } = await askForAccount(app, db, fields, lang);
  if (!link) throw new Error(`no account link was mailed to ${fields.email}`);
  await browser.get(link);
  const confirmed = await browser.form(link, {});
  if (confirmed.statusCode !== 303) throw new Error(`confirming answered ${confirmed.statusCode}`);
  return browser;
}

/** Signs a browser in (a fresh one by default) from the sign-in page. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  secret = password,
  options: { browser?: BrowserSession; lang?: Lang; query?: string } = {},
): Promise<{ browser: BrowserSession; res: LightMyRequestResponse }> {
  const browser = options.browser ?? new BrowserSession(app);
  const page = `${accountPaths[options.lang ?? "nl"].signIn}${options.query ?? ""}`;
  await browser.get(page);
  const res = await browser.form(page, { email, password: secret });
  return { browser, res };
}

export const annasAddress = {
  name: "Anna de Vries",
  street: "Dorpsstraat 12",
  postcode: "1234 AB",
  city: "Utrecht",
  country: "NL",
  email: "anna@example.nl",
};

/**
 * Photo books in the cart, the address given and the order placed, as a browser without
 * JavaScript does it: answers the post's answer (a 303 to the payment provider's page).
 */
export async function placeOrder(
  browser: BrowserSession,
  address: Record<string, string> = annasAddress,
  quantity = 1,
): Promise<LightMyRequestResponse> {
  await browser.get("/assortiment/fotoboeken/exclusief-fotoboek");
  await browser.form("/winkelwagen/inhoud", {
    product: "exclusive-photobook",
    orientation: "portrait",
    size: "21x30",
    quantity: String(quantity),
  });
  await browser.form("/winkelwagen/adres", address);
  return placeFromOverview(browser);
}

/**
 * The overview's "order and pay" button pressed: posts the order key and fingerprint that
 * the given overview (by default, the one fetched now) carries, as its form does.
 */
export async function placeFromOverview(
  browser: BrowserSession,
  overview?: LightMyRequestResponse,
): Promise<LightMyRequestResponse> {
  const page = overview ?? (await browser.get("/winkelwagen/overzicht"));
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.body)?.[1] ?? "";
  return browser.form("/winkelwagen/overzicht", {
    orderKey: field("orderKey"),
    fingerprint: field("fingerprint"),
  });
}
