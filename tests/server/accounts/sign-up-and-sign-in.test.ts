import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../../server/domain/password-hash.ts";
import { accountPaths, askForAccount, mainText, password, signedUp, signIn } from "../../support/accounts.ts";
import { type TestShop, testShop } from "../../support/app.ts";
import { BrowserSession } from "../../support/browser-session.ts";
import { signupLinkPath } from "../../support/subscriptions.ts";

let shop: TestShop;
let clock = new Date("2026-11-28T10:00:00Z");

beforeAll(async () => {
  shop = await testShop({
    env: { SIGNUP_RATE_LIMIT: "1000", SESSION_IDLE_HOURS: "2", SESSION_MAX_DAYS: "3" },
    now: () => clock,
    // The back-off's waits are not sat out here (a test of its own counts them).
    sleep: async () => {},
  });
});
afterAll(() => shop.close());

const db = () => shop.database.db;
const nl = accountPaths.nl;
const de = accountPaths.de;
const later = (hours: number) => {
  clock = new Date(clock.getTime() + hours * 3_600_000);
};
const cookie = (res: LightMyRequestResponse, name: string) =>
  (
    res.cookies as Array<{
      name: string;
      value: string;
      httpOnly?: boolean;
      sameSite?: string;
      maxAge?: number;
    }>
  ).find((c) => c.name === name);
const sessions = () => db().selectFrom("sessions").selectAll().execute();

describe("creating an account", () => {
  it("mails a link and says so; only the link's button makes the account and signs the browser in", async () => {
    const { browser, res, link } = await askForAccount(shop.app, db(), { email: "Anna@Example.nl" });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(nl.mailSent);
    const sent = await browser.follow(res);
    expect(mainText(sent)).toContain("We hebben een e-mail gestuurd naar Anna@Example.nl.");
    expect(await db().selectFrom("accounts").selectAll().execute()).toEqual([]);

    expect(link).toMatch(/^\/account\/bevestigen\/[\w-]{43}$/);
    const page = await browser.get(link as string);
    expect(page.statusCode).toBe(200);
    expect(mainText(page)).toContain("Account voor Anna de Vries (Anna@Example.nl).");
    expect(await db().selectFrom("accounts").selectAll().execute()).toEqual([]);

    const confirmed = await browser.form(link as string, {});
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(nl.account);
    const session = cookie(confirmed, "session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    const account = await browser.follow(confirmed);
    expect(mainText(account)).toContain("Hallo Anna de Vries");
    expect(mainText(account)).toContain("Je account is klaar. Welkom!");
    expect(account.body).toMatch(
      new RegExp(
        `<a class="account-link" href="${nl.account}" aria-current="page">[^]*?>Mijn account</span>\\s*</a>`,
      ),
    );
    // The link is spent: for this browser it leads to the account, for any other it is gone.
    expect((await browser.get(link as string)).headers.location).toBe(nl.account);
    expect((await new BrowserSession(shop.app).get(link as string)).statusCode).toBe(410);
  });

  it("answers an address that has an account exactly as a new one, and mails its owner the way to a new password", async () => {
    await signedUp(shop.app, db(), { email: "bea@example.nl", name: "Bea" });
    const again = await askForAccount(shop.app, db(), { email: "BEA@example.nl", name: "Iemand" });
    const fresh = await askForAccount(shop.app, db(), { email: "nieuw@example.nl", name: "Iemand" });
    expect(again.res.statusCode).toBe(fresh.res.statusCode);
    expect(again.res.headers.location).toBe(fresh.res.headers.location);
    const textOf = async (r: typeof again) => mainText(await r.browser.follow(r.res));
    expect((await textOf(again)).replace("BEA@example.nl", "X")).toBe(
      (await textOf(fresh)).replace("nieuw@example.nl", "X"),
    );
    expect(again.link).toBeUndefined();
    const known = await db().selectFrom("outbox").selectAll().where("kind", "=", "account-known").execute();
    expect(known.map((m) => m.to_address)).toEqual(["bea@example.nl"]);
    expect(known[0]?.text_body).toContain("/wachtwoord-vergeten");
    expect(known[0]?.text_body).not.toContain("Iemand");
    expect(
      await db().selectFrom("accounts").select("name").where("email_key", "=", "bea@example.nl").execute(),
    ).toEqual([{ name: "Bea" }]);
  });

  it("keeps what was typed on a refused form, but never the password, in German too", async () => {
    const browser = new BrowserSession(shop.app);
    await browser.get(de.create);
    const res = await browser.form(de.create, {
      name: "Jonas",
      email: "jonas@",
      password: "kurz",
      passwordConfirm: "anders",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toMatch(/id="account-create-email"[^>]*value="jonas@"/);
    expect(res.body).toMatch(/id="account-create-name"[^>]*value="Jonas"/);
    expect(res.body).not.toContain('value="kurz"');
    expect(mainText(res)).toContain("Geben Sie bitte eine gültige E-Mail-Adresse ein.");
  });
});

describe("signing in", () => {
  it("a wrong address and a wrong password get one message, the address kept and no password", async () => {
    await signedUp(shop.app, db(), { email: "carla@example.nl" });
    const wrongPassword = await signIn(shop.app, "carla@example.nl", "Verkeerd wachtwoord 1!");
    const noAccount = await signIn(shop.app, "niemand@example.nl", password);
    for (const { res } of [wrongPassword, noAccount]) {
      expect(res.statusCode).toBe(422);
      expect(mainText(res)).toContain("Het e-mailadres of het wachtwoord klopt niet.");
      expect(res.body).not.toContain("Verkeerd wachtwoord");
      expect(res.body).not.toMatch(/type="password"[^>]*value=/);
    }
    expect(wrongPassword.res.body).toMatch(/value="carla@example\.nl"/);
    expect(mainText(wrongPassword.res).replace("carla@example.nl", "X")).toBe(
      mainText(noAccount.res).replace("niemand@example.nl", "X"),
    );
  });

  it("makes a new session every time (never the one a browser brought), and goes back where it was asked for", async () => {
    const browser = await signedUp(shop.app, db(), { email: "daan@example.nl" });
    const first = browser.cookieHeader();
    const before = (await sessions()).length;
    const { res } = await signIn(shop.app, "daan@example.nl", password, {
      browser,
      query: `?terug=${encodeURIComponent(nl.orders)}`,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(nl.orders);
    expect(browser.cookieHeader()).not.toBe(first);
    // The browser's old session ended; one new one took its place.
    expect((await sessions()).length).toBe(before);
    const stale = await shop.app.inject({ url: nl.account, headers: { cookie: first } });
    expect(stale.statusCode).toBe(303);
    // Another site is never where it goes.
    const away = await signIn(shop.app, "daan@example.nl", password, { query: "?terug=//evil.example/x" });
    expect(away.res.headers.location).toBe(nl.account);
  });

  it("slows down after failures, then refuses for a while even the right password, counted per address", async () => {
    // A shop of its own: its client has failed nowhere else yet.
    const counted: number[] = [];
    const own = await testShop({
      env: { SIGNUP_RATE_LIMIT: "1000" },
      sleep: async (ms) => {
        counted.push(ms);
      },
    });
    try {
      await signedUp(own.app, own.database.db, { email: "eva@example.nl" });
      for (let i = 0; i < 10; i++) {
        const { res } = await signIn(own.app, "eva@example.nl", `Fout ${i} wachtwoord!`);
        expect(res.statusCode).toBe(422);
      }
      expect(counted).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000]);
      const refused = await signIn(own.app, "eva@example.nl", password, { lang: "de" });
      expect(refused.res.statusCode).toBe(429);
      expect(Number(refused.res.headers["retry-after"])).toBeGreaterThan(0);
      expect(mainText(refused.res)).toContain("Es wurde zu oft ein falsches Passwort eingegeben.");
      expect(refused.res.body).toMatch(/value="eva@example\.nl"/);
      // Another address from the same client is not refused for this one's failures (only slowed).
      await signedUp(own.app, own.database.db, { email: "fenna@example.nl" });
      expect((await signIn(own.app, "fenna@example.nl")).res.statusCode).toBe(303);
    } finally {
      await own.close();
    }
  });

  it("ends after the idle lifetime, and at the absolute one however busy", async () => {
    const browser = await signedUp(shop.app, db(), { email: "gijs@example.nl" });
    later(1.5);
    expect((await browser.get(nl.account)).statusCode).toBe(200);
    later(1.5);
    expect((await browser.get(nl.account)).statusCode).toBe(200);
    later(2.5);
    const idle = await browser.get(nl.account);
    expect(idle.statusCode).toBe(303);
    expect(idle.headers.location).toBe(`${nl.signIn}?terug=%2Faccount`);
    expect(mainText(await browser.follow(idle))).toContain("Log in om verder te gaan.");

    const busy = (await signIn(shop.app, "gijs@example.nl")).browser;
    for (let hour = 0; hour < 72; hour += 1.5) {
      later(1.5);
      const res = await busy.get(nl.account);
      if (res.statusCode !== 200) {
        expect(hour).toBeGreaterThanOrEqual(70);
        return;
      }
    }
    throw new Error("the session held past its absolute lifetime");
  });
});

describe("signing out", () => {
  it("ends the session, forgets the browser's cart and photos, and says so", async () => {
    const browser = await signedUp(shop.app, db(), { email: "hans@example.nl" });
    const res = await browser.form(nl.signOut, {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(nl.signIn);
    for (const name of ["session", "cart", "shopper"]) expect(cookie(res, name)?.value ?? "").toBe("");
    expect(mainText(await browser.follow(res))).toContain("Je bent uitgelogd.");
    expect((await browser.get(nl.account)).statusCode).toBe(303);
    expect((await browser.get("/")).body).toMatch(
      new RegExp(`href="${nl.signIn}">[^]*?>Inloggen</span>\\s*</a>`),
    );
  });

  it("everywhere: every browser signed in to the account is out at once", async () => {
    const phone = await signedUp(shop.app, db(), { email: "ilse@example.nl" });
    const laptop = (await signIn(shop.app, "ilse@example.nl")).browser;
    expect((await laptop.get(nl.account)).statusCode).toBe(200);
    const res = await phone.form(nl.everywhere, {});
    expect(mainText(await phone.follow(res))).toContain("Je bent op al je apparaten uitgelogd.");
    expect((await laptop.get(nl.account)).statusCode).toBe(303);
  });
});

describe("an account made before addresses were confirmed", () => {
  it("signs in only once its address is confirmed: the right password gets the link, and then it works", async () => {
    await db()
      .insertInto("accounts")
      .values({
        id: "legacy-account-00000000a",
        email: "jan@example.nl",
        email_key: "jan@example.nl",
        name: "Jan",
        password_hash: await hashPassword(password),
        locale: "nl",
        email_confirmed_at: null,
        owner_id: "legacy-owner-0000000000",
        cart_id: null,
        created_at: clock.toISOString(),
        updated_at: clock.toISOString(),
      })
      .execute();
    const first = await signIn(shop.app, "jan@example.nl");
    expect(first.res.statusCode).toBe(422);
    expect(mainText(first.res)).toContain(
      "Je e-mailadres is nog niet bevestigd. We hebben een link gestuurd naar jan@example.nl",
    );
    const link = await signupLinkPath(db(), "jan@example.nl", "account-verify");
    expect(link).toMatch(/^\/account\/e-mailadres\/[\w-]{43}$/);
    const browser = new BrowserSession(shop.app);
    await browser.get(link as string);
    const confirmed = await browser.form(link as string, {});
    expect(confirmed.headers.location).toBe(nl.signIn);
    expect(mainText(await browser.follow(confirmed))).toContain("Je e-mailadres is bevestigd.");
    expect((await signIn(shop.app, "jan@example.nl")).res.statusCode).toBe(303);
  });
});

describe("when the database cannot answer", () => {
  it("signing in gets the form back with the shop's words, the address kept, and no stack trace", async () => {
    const broken = await testShop();
    try {
      await broken.database.db.schema.dropTable("sessions").execute();
      await broken.database.db.schema.dropTable("account_tokens").execute();
      await broken.database.db.schema.dropTable("addresses").execute();
      await broken.database.db.schema.alterTable("accounts").renameTo("accounts_away").execute();
      const { res } = await signIn(broken.app, "kim@example.nl");
      expect(res.statusCode).toBe(503);
      expect(mainText(res)).toContain("Inloggen lukt op dit moment niet.");
      expect(res.body).toMatch(/value="kim@example\.nl"/);
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    } finally {
      await broken.close();
    }
  });
});
