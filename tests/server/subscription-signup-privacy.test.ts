import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../server/domain/password-hash.ts";
import { type TestShop, testShop } from "../support/app.ts";
import { BrowserSession } from "../support/browser-session.ts";
import { textOf } from "../support/shopper.ts";
import { activeSubscription, signupLinkPath } from "../support/subscriptions.ts";

let shop: TestShop;
beforeAll(async () => {
  // Every sign-up here comes from one address; the limit has a test of its own.
  shop = await testShop({ env: { SIGNUP_RATE_LIMIT: "1000", SUPPORT_EMAIL: "hulp@fotohoek.test" } });
});
afterAll(() => shop.close());

const ownersPassword = "Zomer aan zee 2026!";
const strangersPassword = "Winter in de bergen 1999?";

const form = (fields: Record<string, string>) => ({
  plan: "plus",
  country: "NL",
  name: "Carla Jansen",
  password: strangersPassword,
  passwordConfirm: strangersPassword,
  ...fields,
});

async function signUp(
  lang: "nl" | "de",
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ browser: BrowserSession; res: LightMyRequestResponse }> {
  const browser = new BrowserSession(shop.app);
  await browser.get(lang === "nl" ? "/abonnement" : "/abo");
  const res = await browser.form(
    lang === "nl" ? "/abonnement/aanmelden" : "/abo/anmelden",
    form(fields),
    headers,
  );
  return { browser, res };
}

/** What a browser can see of an answer besides its body: status, where it leads, which cookies it sets and how. */
function outline(res: LightMyRequestResponse) {
  return {
    status: res.statusCode,
    location: res.headers.location,
    cacheControl: res.headers["cache-control"],
    cookies: (res.cookies as Array<Record<string, unknown>>)
      .map(({ name, path, maxAge, httpOnly, sameSite }) => ({ name, path, maxAge, httpOnly, sameSite }))
      .sort((a, b) => `${a.name}${a.path}`.localeCompare(`${b.name}${b.path}`)),
  };
}

const db = () => shop.database.db;
/** An address's account with its subscription. */
const subscriptionsOf = (key: string) =>
  db()
    .selectFrom("subscriptions")
    .innerJoin("accounts", "accounts.id", "subscriptions.account_id")
    .selectAll("accounts")
    .where("accounts.email_key", "=", key)
    .execute();
const signupsOf = (key: string) =>
  db().selectFrom("signups").selectAll().where("email_key", "=", key).execute();
const mailsOfKind = (kind: string) =>
  db().selectFrom("outbox").selectAll().where("kind", "=", kind).execute();

describe("someone who signs up with an address that already has a subscription", () => {
  it("sees exactly what a new sign-up sees, and nothing is stored for it", async () => {
    // The owner has a subscription; then a stranger types the same address, differently cased.
    await activeSubscription(db(), { email: "Carla@Example.nl", password: ownersPassword });
    const fresh = await signUp("nl", { email: "nieuw.adres@example.nl" });
    const stranger = await signUp("nl", { email: "carla@EXAMPLE.nl" });

    expect(outline(stranger.res)).toEqual(outline(fresh.res));
    expect(stranger.res.headers.location).toBe("/abonnement/welkom");
    const freshWelcome = await fresh.browser.follow(fresh.res);
    const strangerWelcome = await stranger.browser.follow(stranger.res);
    expect(outline(strangerWelcome)).toEqual(outline(freshWelcome));
    const welcomeText = (res: LightMyRequestResponse) =>
      textOf(/<main[\s\S]*<\/main>/.exec(res.body)?.[0] ?? "");
    expect(welcomeText(strangerWelcome)).toContain("Welkom, Carla Jansen!");
    expect(welcomeText(strangerWelcome)).toContain("We hebben een e-mail gestuurd naar carla@EXAMPLE.nl.");
    expect(welcomeText(strangerWelcome).replace("carla@EXAMPLE.nl", "ADDRESS")).toBe(
      welcomeText(freshWelcome).replace("nieuw.adres@example.nl", "ADDRESS"),
    );

    const rows = await subscriptionsOf("carla@example.nl");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toBe("Carla Jansen");
    // No link for the stranger's sign-up: the address already has what a link would make.
    expect(await signupsOf("carla@example.nl")).toHaveLength(1);
    expect(await signupLinkPath(db(), "carla@EXAMPLE.nl")).toBeUndefined();
    // The owner's password still opens it; the stranger's does not.
    expect(await verifyPassword(ownersPassword, rows[0]?.password_hash ?? "")).toBe(true);
    expect(await verifyPassword(strangersPassword, rows[0]?.password_hash ?? "")).toBe(false);
  });

  it("with JavaScript gets the same welcome fragment as a new sign-up, byte for byte", async () => {
    const ajax = { "x-requested-with": "XMLHttpRequest" };
    await activeSubscription(db(), { email: "joost@example.nl", name: "Joost" });
    const again = await signUp("nl", { email: "joost@example.nl", name: "Iemand Anders" }, ajax);
    const fresh = await signUp(
      "nl",
      { email: "joost@example.nl".replace("joost", "joost2"), name: "Iemand Anders" },
      ajax,
    );
    expect(again.res.statusCode).toBe(200);
    expect(outline(again.res)).toEqual(outline(fresh.res));
    expect(again.res.body.replace("joost@example.nl", "ADDRESS")).toBe(
      fresh.res.body.replace("joost2@example.nl", "ADDRESS"),
    );
    expect(await subscriptionsOf("joost@example.nl")).toHaveLength(1);
  });

  it("makes the address's owner a mail in the form's language, without anything the stranger typed", async () => {
    await activeSubscription(db(), { email: "Daan.Smit@example.nl", name: "Daan Smit" });
    const before = (await mailsOfKind("subscription-already-subscribed")).length;
    const { res } = await signUp("nl", { email: "daan.smit@example.nl", name: "<b>Klik hier</b>" });
    expect(res.statusCode).toBe(303);
    const mails = await mailsOfKind("subscription-already-subscribed");
    expect(mails).toHaveLength(before + 1);
    const mail = mails.at(-1);
    // To the address as its subscription has it.
    expect(mail?.to_address).toBe("Daan.Smit@example.nl");
    expect(mail?.locale).toBe("nl");
    expect(mail?.reply_to).toBe("hulp@fotohoek.test");
    expect(mail?.subject).toBe("Iemand wilde zich aanmelden met je e-mailadres");
    expect(mail?.text_body).toContain("Je hebt al een fotoabonnement, dus er is niets veranderd");
    expect(mail?.text_body).toContain("Was jij dit niet? Dan kun je deze e-mail negeren");
    expect(mail?.text_body).toContain("hulp@fotohoek.test");
    expect(mail?.text_body).not.toContain("Klik hier");
    // No link for the second try.
    const links = await db()
      .selectFrom("outbox")
      .select("id")
      .where("kind", "=", "subscription-confirm")
      .where("to_address", "in", ["Daan.Smit@example.nl", "daan.smit@example.nl"])
      .execute();
    expect(links).toHaveLength(1);
  });

  it("from the German form makes the mail in German, and a flood of tries makes one mail an hour", async () => {
    await activeSubscription(db(), { email: "eva@example.de" });
    const before = (await mailsOfKind("subscription-already-subscribed")).length;
    for (let i = 0; i < 3; i++) {
      const { res } = await signUp("de", { email: "EVA@example.de" });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe("/abo/willkommen");
    }
    const mails = (await mailsOfKind("subscription-already-subscribed")).filter(
      (m) => m.to_address === "eva@example.de",
    );
    expect(mails).toHaveLength(1);
    expect((await mailsOfKind("subscription-already-subscribed")).length).toBe(before + 1);
    expect(mails[0]?.locale).toBe("de");
    expect(mails[0]?.subject).toBe("Anmeldeversuch mit Ihrer E-Mail-Adresse");
    expect(mails[0]?.text_body).toContain("Sie haben bereits ein Foto-Abo");
    expect(mails[0]?.text_body).toContain("Waren Sie das nicht?");
    expect(await subscriptionsOf("eva@example.de")).toHaveLength(1);
  });

  it("cannot learn it from the welcome page later either: it is made from the sign-up, not the database", async () => {
    await signUp("nl", { email: "fleur@example.nl" });
    const { browser, res } = await signUp("nl", { email: "fleur@example.nl" });
    // The stranger keeps their shopper cookie but drops the welcome cookie: no subscription of theirs shows.
    const welcome = await browser.follow(res);
    expect(welcome.statusCode).toBe(200);
    const withoutWelcomeCookie = await shop.app.inject({
      url: "/abonnement/welkom",
      headers: { cookie: browser.cookieHeader().replace(/subscription_welcome=[^;]*(; )?/, "") },
    });
    expect(withoutWelcomeCookie.statusCode).toBe(303);
    expect(withoutWelcomeCookie.headers.location).toBe("/abonnement");
    // The same holds for a browser whose sign-up was new.
    const fresh = await signUp("nl", { email: "gijs@example.nl" });
    const freshWithout = await shop.app.inject({
      url: "/abonnement/welkom",
      headers: { cookie: fresh.browser.cookieHeader().replace(/subscription_welcome=[^;]*(; )?/, "") },
    });
    expect(outline(freshWithout)).toEqual(outline(withoutWelcomeCookie));
  });
});
