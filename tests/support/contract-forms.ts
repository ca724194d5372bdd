import { expect } from "vitest";
import type { TestShop } from "./app.ts";
import { type Shopper, shopper } from "./shopper.ts";
import { signupLinkPath } from "./subscriptions.ts";

/** The public cancellation and withdrawal forms' addresses, per kind and language. */
export const contractPaths = {
  cancel: {
    nl: { form: "/opzeggen", check: "/opzeggen/controleren", received: "/opzeggen/ontvangen" },
    de: { form: "/kuendigen", check: "/kuendigen/pruefen", received: "/kuendigen/eingegangen" },
  },
  withdraw: {
    nl: { form: "/herroepen", check: "/herroepen/controleren", received: "/herroepen/ontvangen" },
    de: { form: "/widerrufen", check: "/widerrufen/pruefen", received: "/widerrufen/eingegangen" },
  },
} as const;

/**
 * A request sent as a browser without JavaScript sends it: the form, its check page, the
 * button; answers the page after it.
 */
export async function sendContractRequest(
  s: Shopper,
  kind: "cancel" | "withdraw",
  lang: "nl" | "de",
  fields: Record<string, string>,
) {
  const paths = contractPaths[kind][lang];
  await s.get(paths.form);
  const step1 = await s.post(paths.form, fields);
  expect(step1.statusCode).toBe(303);
  expect(step1.headers.location).toBe(paths.check);
  const check = await s.get(paths.check);
  expect(check.statusCode).toBe(200);
  const sent = await s.post(paths.check, {});
  expect(sent.statusCode).toBe(303);
  expect(sent.headers.location).toBe(paths.received);
  return s.get(paths.received);
}

/**
 * Signs up for Premium (3 months at € 4,99, then € 9,99) through the shop's pages, confirms
 * and pays the first month on the test provider's page: an active subscription with a mandate.
 * The shop must listen at PUBLIC_URL (the payment's webhook).
 */
export async function paidSubscription(shop: TestShop, lang: "nl" | "de", email: string, origin: string) {
  const password = "Zomer aan zee 2026!";
  const s = await shopper(shop.app, lang === "nl" ? "/abonnement" : "/abo");
  const signup = await s.post(lang === "nl" ? "/abonnement/aanmelden" : "/abo/anmelden", {
    plan: "premium",
    name: "Anna de Vries",
    email,
    password,
    passwordConfirm: password,
  });
  expect(signup.statusCode).toBe(303);
  const link = (await signupLinkPath(shop.database.db, email)) as string;
  const confirmed = await s.post(link, {});
  const testPage = new URL(String(confirmed.headers.location), origin).pathname;
  expect((await s.post(testPage, { outcome: "paid" })).statusCode).toBe(303);
  const row = await shop.database.db
    .selectFrom("subscriptions")
    .innerJoin("accounts", "accounts.id", "subscriptions.account_id")
    .selectAll("subscriptions")
    .where("accounts.email", "=", email)
    .executeTakeFirstOrThrow();
  expect(row.status).toBe("active");
  return row;
}
