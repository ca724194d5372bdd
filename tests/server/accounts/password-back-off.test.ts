import type { LightMyRequestResponse } from "fastify";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { accountPaths, mainText, password, signedUp, signIn } from "../../support/accounts.ts";
import { type TestShop, testShop } from "../../support/app.ts";
import { BrowserSession } from "../../support/browser-session.ts";
import { removeKeysOfThisRun, shopRedisUrl } from "../../support/redis.ts";

const nl = accountPaths.nl;
const start = new Date("2026-11-28T10:00:00Z");

let opened: TestShop[] = [];
afterEach(async () => {
  for (const shop of opened) await shop.close();
  opened = [];
});
afterAll(removeKeysOfThisRun);

/** A shop of its own with the store given; its clock and the waits it would make are the test's. */
async function shopWith(store: () => Record<string, string>) {
  const clock = { now: start };
  const waits: number[] = [];
  const shop = await testShop({
    env: { SIGNUP_RATE_LIMIT: "1000", ...store() },
    now: () => clock.now,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });
  opened.push(shop);
  const later = (minutes: number) => {
    clock.now = new Date(clock.now.getTime() + minutes * 60_000);
  };
  return { shop, waits, later };
}

/** Signs in from the sign-in page, in a browser at the address given. */
async function signInFrom(shop: TestShop, ip: string, email: string, secret: string) {
  const browser = new BrowserSession(shop.app, { ip });
  return (await signIn(shop.app, email, secret, { browser })).res;
}

const statuses = (answers: LightMyRequestResponse[]) => answers.map((res) => res.statusCode);
const count = (answers: LightMyRequestResponse[], status: number) =>
  statuses(answers).filter((s) => s === status).length;

const stores: [string, () => Record<string, string>][] = [
  ["in memory", () => ({})],
  ["in Redis", () => ({ REDIS_URL: shopRedisUrl().url })],
];

describe.each(stores)("the password back-off %s", (_where, store) => {
  it("checks at most the allowance of 40 wrong passwords sent at once for one account", async () => {
    const { shop } = await shopWith(store);
    await signedUp(shop.app, shop.database.db, { email: "anna@example.nl" });
    const attacker = new BrowserSession(shop.app, { ip: "203.0.113.9" });
    await attacker.get(nl.signIn);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        attacker.form(nl.signIn, { email: "anna@example.nl", password: `Fout wachtwoord ${i}!` }),
      ),
    );
    // A 422 is a password that was checked (and found wrong); a 429 one that was not.
    expect(count(answers, 422)).toBeLessThanOrEqual(10);
    expect(count(answers, 429)).toBeGreaterThanOrEqual(30);
    expect(count(answers, 422) + count(answers, 429)).toBe(40);
    const refused = answers.find((res) => res.statusCode === 429) as LightMyRequestResponse;
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(mainText(refused)).toContain("Er is te vaak een verkeerd wachtwoord ingevuld.");
    expect(refused.body).toMatch(/value="anna@example\.nl"/);
    expect(refused.body).not.toContain("Fout wachtwoord");
    // Without the back-off all forty are checked: on a busy machine longer than a test is usually given.
  }, 120_000);

  it("lets the owner in at once from another address while an attacker is refused", async () => {
    const { shop, waits } = await shopWith(store);
    await signedUp(shop.app, shop.database.db, { email: "bram@example.nl" });
    const tries: number[] = [];
    for (let i = 0; i < 12; i++) {
      tries.push(
        (await signInFrom(shop, "203.0.113.9", "bram@example.nl", `Fout wachtwoord ${i}!`)).statusCode,
      );
    }
    expect(tries).toEqual([...Array(10).fill(422), 429, 429]);
    // The attacker's own address, even with the right password, stays refused.
    expect((await signInFrom(shop, "203.0.113.9", "bram@example.nl", password)).statusCode).toBe(429);

    waits.length = 0;
    const owner = await signInFrom(shop, "198.51.100.4", "bram@example.nl", password);
    expect(owner.statusCode).toBe(303);
    expect(owner.headers.location).toBe(nl.account);
    // Not slowed by the attacker's failures either.
    expect(waits).toEqual([]);
  });

  it("refuses guesses spread over many addresses past the account's ceiling, pointing to a new password", async () => {
    const { shop } = await shopWith(store);
    await signedUp(shop.app, shop.database.db, { email: "cor@example.nl" });
    const spread: number[] = [];
    for (let i = 1; i <= 50; i++) {
      spread.push(
        (await signInFrom(shop, `198.18.0.${i}`, "cor@example.nl", `Fout wachtwoord ${i}!`)).statusCode,
      );
    }
    expect(spread).toEqual(Array(50).fill(422));

    const past = await signInFrom(shop, "198.18.1.1", "cor@example.nl", "Nog een gok 2026!");
    expect(past.statusCode).toBe(429);
    expect(Number(past.headers["retry-after"])).toBeGreaterThan(0);
    expect(mainText(past)).toMatch(/wachtwoord vergeten/i);
    expect(past.body).toContain(`href="${nl.forgotten}"`);
    expect(past.body).toMatch(/value="cor@example\.nl"/);

    const inGerman = await (async () => {
      const browser = new BrowserSession(shop.app, { ip: "198.18.1.2" });
      return (await signIn(shop.app, "cor@example.nl", "Noch ein Versuch 2026!", { browser, lang: "de" }))
        .res;
    })();
    expect(inGerman.statusCode).toBe(429);
    expect(mainText(inGerman)).toMatch(/passwort vergessen/i);
    expect(inGerman.body).toContain(`href="${accountPaths.de.forgotten}"`);
    // Fifty scrypt checks: on a busy machine this takes longer than a test is usually given.
  }, 180_000);
});

// Each test below checks 12 to 22 scrypt hashes, 0.3 to 0.7 s each on a busy 2-core machine:
// longer than a test is usually given.
const scryptChecks = { timeout: 90_000 };

describe("the password back-off in memory", scryptChecks, () => {
  it("counts an IPv6 client per /64, as the rate limits do", async () => {
    const { shop } = await shopWith(() => ({}));
    await signedUp(shop.app, shop.database.db, { email: "dirk@example.nl" });
    const tries: number[] = [];
    for (let i = 0; i < 11; i++) {
      tries.push(
        (await signInFrom(shop, `2001:db8:1:2::${i + 1}`, "dirk@example.nl", `Fout ${i} wachtwoord!`))
          .statusCode,
      );
    }
    expect(tries).toEqual([...Array(10).fill(422), 429]);
    // Another /64 is another client.
    expect((await signInFrom(shop, "2001:db8:1:3::1", "dirk@example.nl", password)).statusCode).toBe(303);
  });

  it("forgives the owner's own typos once the right password is given, and lets the window pass", async () => {
    const { shop, later } = await shopWith(() => ({}));
    await signedUp(shop.app, shop.database.db, { email: "els@example.nl" });
    const at = "198.51.100.7";
    for (let i = 0; i < 9; i++) {
      expect((await signInFrom(shop, at, "els@example.nl", `Typfout ${i} wachtwoord!`)).statusCode).toBe(422);
    }
    expect((await signInFrom(shop, at, "els@example.nl", password)).statusCode).toBe(303);
    for (let i = 0; i < 10; i++) {
      expect((await signInFrom(shop, at, "els@example.nl", `Weer fout ${i} wachtwoord!`)).statusCode).toBe(
        422,
      );
    }
    expect((await signInFrom(shop, at, "els@example.nl", password)).statusCode).toBe(429);
    later(16);
    expect((await signInFrom(shop, at, "els@example.nl", password)).statusCode).toBe(303);
  });
});

/** Posts the account page's form `count` times with a wrong current password; answers the last answer. */
async function wrongTimes(
  browser: BrowserSession,
  page: string,
  action: string,
  fields: Record<string, string>,
  times: number,
): Promise<LightMyRequestResponse[]> {
  await browser.get(page);
  const answers: LightMyRequestResponse[] = [];
  for (let i = 0; i < times; i++) {
    answers.push(await browser.form(action, { ...fields, currentPassword: `Fout wachtwoord ${i}!` }));
  }
  return answers;
}

describe("the account pages that ask for the password", scryptChecks, () => {
  it("deleting the account: refused after the allowance, and the account stays", async () => {
    const { shop } = await shopWith(() => ({}));
    const browser = await signedUp(shop.app, shop.database.db, { email: "fleur@example.nl" });
    const answers = await wrongTimes(browser, nl.privacy, nl.delete, {}, 11);
    expect(statuses(answers)).toEqual([...Array(10).fill(422), 429]);
    const refused = answers[10] as LightMyRequestResponse;
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(mainText(refused)).toContain("Er is te vaak een verkeerd wachtwoord ingevuld.");
    // Even the right password is not checked until the window has passed.
    expect((await browser.form(nl.delete, { currentPassword: password })).statusCode).toBe(429);
    const accounts = await shop.database.db.selectFrom("accounts").select("email").execute();
    expect(accounts.map((a) => a.email)).toEqual(["fleur@example.nl"]);
  });

  it("a new e-mail address: refused after the allowance, with the address typed kept", async () => {
    const { shop } = await shopWith(() => ({}));
    const browser = await signedUp(shop.app, shop.database.db, { email: "gerrit@example.nl" });
    const answers = await wrongTimes(
      browser,
      nl.settings,
      nl.email,
      { email: "gerrit.nieuw@example.nl" },
      11,
    );
    expect(statuses(answers)).toEqual([...Array(10).fill(422), 429]);
    const refused = answers[10] as LightMyRequestResponse;
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(mainText(refused)).toContain("Er is te vaak een verkeerd wachtwoord ingevuld.");
    expect(refused.body).toContain('value="gerrit.nieuw@example.nl"');
    expect(refused.body).not.toContain("Fout wachtwoord");
    const mails = await shop.database.db
      .selectFrom("outbox")
      .select("to_address")
      .where("to_address", "=", "gerrit.nieuw@example.nl")
      .execute();
    expect(mails).toEqual([]);
  });

  it("a new password: refused after the allowance, in German too, and the password is unchanged", async () => {
    const { shop } = await shopWith(() => ({}));
    const browser = await signedUp(shop.app, shop.database.db, { email: "hanna@example.nl" });
    const secret = "Herfst in het bos 2027!";
    const answers = await wrongTimes(
      browser,
      accountPaths.de.settings,
      accountPaths.de.password,
      { password: secret, passwordConfirm: secret },
      11,
    );
    expect(statuses(answers)).toEqual([...Array(10).fill(422), 429]);
    const refused = answers[10] as LightMyRequestResponse;
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(mainText(refused)).toContain("Es wurde zu oft ein falsches Passwort eingegeben.");
    expect(refused.body).not.toContain(secret);
    // The old password still opens the account, from another address.
    const elsewhere = await signInFrom(shop, "198.51.100.9", "hanna@example.nl", password);
    expect(elsewhere.statusCode).toBe(303);
  });
});
