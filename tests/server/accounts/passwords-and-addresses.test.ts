import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../../server/domain/password-hash.ts";
import { accountPaths, mainText, password, signedUp, signIn } from "../../support/accounts.ts";
import { type TestShop, testShop } from "../../support/app.ts";
import { BrowserSession } from "../../support/browser-session.ts";
import { signupLinkPath } from "../../support/subscriptions.ts";

let shop: TestShop;
let clock = new Date("2026-11-28T10:00:00Z");

beforeAll(async () => {
  shop = await testShop({ env: { SIGNUP_RATE_LIMIT: "1000" }, now: () => clock, sleep: async () => {} });
});
afterAll(() => shop.close());

const db = () => shop.database.db;
const nl = accountPaths.nl;
const de = accountPaths.de;
const newPassword = "Winter in de bergen 2027?";
const mailsTo = (address: string) =>
  db()
    .selectFrom("outbox")
    .select(["kind", "subject", "text_body"])
    .where("to_address", "=", address)
    .execute();
const hashOf = async (email: string) =>
  (
    await db()
      .selectFrom("accounts")
      .select("password_hash")
      .where("email_key", "=", email)
      .executeTakeFirstOrThrow()
  ).password_hash;

/** Asks for a reset link from the forgotten-password page; answers the page it lands on. */
async function forgot(email: string, lang: "nl" | "de" = "nl") {
  const browser = new BrowserSession(shop.app);
  await browser.get(accountPaths[lang].forgotten);
  return browser.form(accountPaths[lang].forgotten, { email });
}

describe("a forgotten password", () => {
  it("gets the same answer for any address; only an account's address gets a link", async () => {
    await signedUp(shop.app, db(), { email: "anna@example.nl" });
    const known = await forgot("ANNA@example.nl");
    const unknown = await forgot("niemand@example.nl");
    expect(known.statusCode).toBe(200);
    expect(mainText(known).replace("ANNA@example.nl", "X")).toBe(
      mainText(unknown).replace("niemand@example.nl", "X"),
    );
    expect(mainText(known)).toContain(
      "Als er een account is met ANNA@example.nl, hebben we daar een link naartoe gestuurd.",
    );
    expect((await mailsTo("anna@example.nl")).map((m) => m.kind)).toContain("password-reset");
    expect(await mailsTo("niemand@example.nl")).toEqual([]);
  });

  it("is reset with the link: once, within the hour; every session ends and this browser is signed in", async () => {
    const elsewhere = await signedUp(shop.app, db(), { email: "bram@example.nl" });
    await forgot("bram@example.nl");
    const link = (await signupLinkPath(db(), "bram@example.nl", "password-reset")) as string;
    expect(link).toMatch(/^\/wachtwoord-herstellen\/[\w-]{43}$/);
    const stored = await db().selectFrom("account_tokens").select("token_hash").execute();
    expect(stored.some((row) => link.includes(row.token_hash))).toBe(false);

    const browser = new BrowserSession(shop.app);
    const page = await browser.get(link);
    expect(mainText(page)).toContain("Kies een nieuw wachtwoord voor bram@example.nl.");
    const weak = await browser.form(link, { password: "fotohoek", passwordConfirm: "fotohoek" });
    expect(weak.statusCode).toBe(422);
    const done = await browser.form(link, { password: newPassword, passwordConfirm: newPassword });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(nl.account);
    expect(mainText(await browser.follow(done))).toContain("Je nieuwe wachtwoord is opgeslagen.");
    expect(await verifyPassword(newPassword, await hashOf("bram@example.nl"))).toBe(true);
    expect((await elsewhere.get(nl.account)).statusCode).toBe(303);
    // Used: the link's page offers a new one.
    const again = await new BrowserSession(shop.app).get(link);
    expect(again.statusCode).toBe(410);
    expect(mainText(again)).toContain("Deze link werkt niet meer");
    expect(again.body).toContain(`href="${nl.forgotten}"`);
    expect((await signIn(shop.app, "bram@example.nl", newPassword)).res.statusCode).toBe(303);
  });

  it("a link older than an hour, or tampered with, resets nothing", async () => {
    await signedUp(shop.app, db(), { email: "carla@example.nl" });
    await forgot("carla@example.nl", "de");
    const link = (await signupLinkPath(db(), "carla@example.nl", "password-reset")) as string;
    expect(link).toMatch(/^\/passwort-zuruecksetzen\//);
    const browser = new BrowserSession(shop.app);
    const tampered = `${link.slice(0, -3)}abc`;
    expect((await browser.get(tampered)).statusCode).toBe(404);
    clock = new Date(clock.getTime() + 61 * 60_000);
    const late = await browser.get(link);
    expect(late.statusCode).toBe(410);
    expect(mainText(late)).toContain("Dieser Link funktioniert nicht mehr");
    const before = await hashOf("carla@example.nl");
    // A page with a form gives the browser its token.
    await browser.get(de.forgotten);
    expect(
      (await browser.form(link, { password: newPassword, passwordConfirm: newPassword })).statusCode,
    ).toBe(410);
    expect(await hashOf("carla@example.nl")).toBe(before);
  });
});

describe("changing the password", () => {
  it("needs the current one; then other browsers are out, this one stays, and the owner is told by mail", async () => {
    const browser = await signedUp(shop.app, db(), { email: "daan@example.nl" });
    const other = (await signIn(shop.app, "daan@example.nl")).browser;
    await browser.get(nl.settings);
    const wrong = await browser.form(nl.password, {
      currentPassword: "Niet mijn wachtwoord 1",
      password: newPassword,
      passwordConfirm: newPassword,
    });
    expect(wrong.statusCode).toBe(422);
    expect(mainText(wrong)).toContain("Dit wachtwoord klopt niet.");
    expect(wrong.body).not.toContain(newPassword);

    const changed = await browser.form(nl.password, {
      currentPassword: password,
      password: newPassword,
      passwordConfirm: newPassword,
    });
    expect(changed.statusCode).toBe(303);
    expect(mainText(await browser.follow(changed))).toContain("Je wachtwoord is gewijzigd.");
    expect((await browser.get(nl.account)).statusCode).toBe(200);
    expect((await other.get(nl.account)).statusCode).toBe(303);
    expect((await mailsTo("daan@example.nl")).map((m) => m.kind)).toContain("password-changed");
  });
});

describe("changing the e-mail address", () => {
  it("is confirmed at the new address, with a notice to the old one; then the account signs in with the new one", async () => {
    const browser = await signedUp(shop.app, db(), { email: "eva@example.nl", name: "Eva" }, "de");
    await browser.get(de.settings);
    const asked = await browser.form(de.email, { email: "eva.neu@example.de", currentPassword: password });
    expect(asked.statusCode).toBe(303);
    expect(mainText(await browser.follow(asked))).toContain(
      "Wir haben einen Link an eva.neu@example.de geschickt. Ihre E-Mail-Adresse ändert sich, sobald Sie ihn öffnen; bis dahin gilt eva@example.nl.",
    );
    const notice = (await mailsTo("eva@example.nl")).find((m) => m.kind === "email-change-notice");
    expect(notice?.subject).toBe("Ihre E-Mail-Adresse wird geändert");
    expect(notice?.text_body).toContain("eva.neu@example.de");
    expect(
      await db().selectFrom("accounts").select("email").where("email_key", "=", "eva@example.nl").execute(),
    ).toHaveLength(1);

    const link = (await signupLinkPath(db(), "eva.neu@example.de", "email-change")) as string;
    await browser.get(link);
    const confirmed = await browser.form(link, {});
    expect(confirmed.headers.location).toBe(de.settings);
    expect(mainText(await browser.follow(confirmed))).toContain(
      "Ihre E-Mail-Adresse ist jetzt eva.neu@example.de.",
    );
    expect((await signIn(shop.app, "eva.neu@example.de")).res.statusCode).toBe(303);
    expect((await signIn(shop.app, "eva@example.nl")).res.statusCode).toBe(422);
  });

  it("to an address another account has: refused when the link is used, and the address stays", async () => {
    await signedUp(shop.app, db(), { email: "fleur@example.nl" });
    const browser = await signedUp(shop.app, db(), { email: "gijs@example.nl" });
    await browser.get(nl.settings);
    await browser.form(nl.email, { email: "Fleur@example.nl", currentPassword: password });
    const link = (await signupLinkPath(db(), "Fleur@example.nl", "email-change")) as string;
    await browser.get(link);
    const refused = await browser.form(link, {});
    expect(refused.statusCode).toBe(410);
    expect(mainText(refused)).toContain("Fleur@example.nl hoort al bij een ander account.");
    expect((await signIn(shop.app, "gijs@example.nl")).res.statusCode).toBe(303);
  });

  it("keeps what was typed when refused, without the password", async () => {
    const browser = await signedUp(shop.app, db(), { email: "hans@example.nl" });
    await browser.get(nl.settings);
    const same = await browser.form(nl.email, { email: "HANS@example.nl", currentPassword: password });
    expect(same.statusCode).toBe(422);
    expect(mainText(same)).toContain("Dit is al je e-mailadres.");
    const wrong = await browser.form(nl.email, { email: "hans.nieuw@example.nl", currentPassword: "fout" });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toMatch(/id="email-change-email"[^>]*value="hans\.nieuw@example\.nl"/);
    expect(wrong.body).not.toContain('value="fout"');
  });
});
