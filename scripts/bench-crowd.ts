// The bench's crowd: thousands of distinct shoppers, each with a cart of their own (two lines
// and a delivery address), a share of them signed in with an account of their own, as the
// shop's database holds them after each had filled their cart through the pages. Written
// straight into the running shop's database through its own repositories, since making
// them through the pages (four posts each) would take minutes and run into the per-client
// limits of the one address the bench asks from.
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import type { DeliveryAddress } from "../server/domain/delivery-address.ts";
import { defaultSessionLifetimes } from "../server/domain/session-rules.ts";
import { accountRepository, emailKey } from "../server/store/account-repository.ts";
import { cartRepository } from "../server/store/cart-repository.ts";
import { openDatabase } from "../server/store/database.ts";
import { randomId } from "../server/store/random-id.ts";
import { sessionRepository } from "../server/store/session-repository.ts";

export interface CrowdShopper {
  /** What this shopper's browser sends: cart, form secret, and when signed in session and shopper. */
  cookie: string;
  signedIn: boolean;
  /** Signed in with a running subscription (Premium): their cart and account pages ask more. */
  subscriber: boolean;
}

const require = createRequire(import.meta.url);
const cookieSignature = require("@fastify/cookie") as { sign(value: string, secret: string): string };
// The form secret as @fastify/csrf-protection makes it for a browser's first form.
const Tokens = require("@fastify/csrf") as new () => { secret(): Promise<string> };

/** What each shopper put in the cart, as the bench's own shopper does (bench-shopper.ts). */
const lines = [
  { item: { productId: "exclusive-photobook", orientation: "landscape", sizeId: "30x21" }, quantity: 1 },
  { item: { productId: "classic-prints", orientation: "portrait", sizeId: "10x15" }, quantity: 24 },
];

/**
 * A Premium subscription started today and paid for its first month, as the sign-up and
 * its first payment leave it (its free prints and discount then show in the cart).
 */
function premiumFor(accountId: string, at: Date) {
  const day = at.toISOString().slice(0, 10);
  const month = new Date(at);
  month.setUTCMonth(month.getUTCMonth() + 1);
  return {
    id: randomId(),
    owner_id: null,
    account_id: accountId,
    plan_id: "premium",
    monthly_cents: 999,
    offer_cents: null,
    offer_months: null,
    locale: "nl",
    country: "NL",
    status: "active",
    paid_from: day,
    paid_until: month.toISOString().slice(0, 10),
    started_on: day,
    customer_id: `cst_${accountId.slice(0, 10)}`,
    mandate_id: `mdt_${accountId.slice(0, 10)}`,
    created_at: at.toISOString(),
  };
}

const streets = ["Dorpsstraat", "Kerkweg", "Molenlaan", "Stationsplein", "Havenkade"];

function addressOf(n: number, email: string): DeliveryAddress {
  return {
    name: `Shopper ${n}`,
    street: `${streets[n % streets.length]} ${1 + (n % 180)}`,
    postcode: `${1000 + (n % 8999)} AB`,
    city: "Utrecht",
    country: "NL",
    email,
  };
}

/**
 * Makes `size` shoppers in the shop's database at `databaseUrl` (already migrated by the
 * running shop), `signedInShare` of them with an account, and returns their cookies, signed
 * with the shop's `cookieSecret`. `passwordHash` is any stored hash: nobody signs in with it.
 */
export async function buildCrowd(options: {
  databaseUrl: string;
  cookieSecret: string;
  size: number;
  signedInShare: number;
  /** Of the whole crowd, the share that is signed in with a running subscription (within the signed-in share). */
  subscriberShare?: number;
  passwordHash: string;
  /** Shoppers written at once; each is a few short transactions. */
  parallel?: number;
}): Promise<CrowdShopper[]> {
  const database = openDatabase(options.databaseUrl, { poolSize: options.parallel ?? 8 });
  const { db } = database;
  const carts = cartRepository(db);
  const accounts = accountRepository(db);
  const sessions = sessionRepository(db, defaultSessionLifetimes);
  const tokens = new Tokens();
  const signed = (name: string, value: string) =>
    `${name}=${encodeURIComponent(cookieSignature.sign(value, options.cookieSecret))}`;
  // A run's own tag keeps its e-mail addresses apart from any earlier run's on the same database.
  const run = randomBytes(4).toString("hex");

  const one = async (n: number): Promise<CrowdShopper> => {
    const signedIn = n < Math.round(options.size * options.signedInShare);
    const subscriber = signedIn && n < Math.round(options.size * (options.subscriberShare ?? 0));
    const email = `crowd-${run}-${n}@example.nl`;
    const cartId = await carts.create();
    for (const { item, quantity } of lines) await carts.add(cartId, item, quantity);
    await carts.saveAddress(cartId, addressOf(n, email));
    const cookies = [signed("cart", cartId), signed("_csrf", await tokens.secret())];
    if (signedIn) {
      const accountId = randomId();
      const ownerId = randomId();
      const at = new Date();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("accounts")
          .values({
            id: accountId,
            email,
            email_key: emailKey(email),
            name: `Shopper ${n}`,
            password_hash: options.passwordHash,
            locale: "nl",
            email_confirmed_at: at.toISOString(),
            owner_id: ownerId,
            cart_id: null,
            created_at: at.toISOString(),
            updated_at: at.toISOString(),
          })
          .execute();
        await accounts.setCart(trx, accountId, cartId);
        if (subscriber) await trx.insertInto("subscriptions").values(premiumFor(accountId, at)).execute();
        const { token } = await sessions.start(trx, accountId, at);
        cookies.push(signed("session", token), signed("shopper", ownerId));
      });
    }
    return { cookie: cookies.join("; "), signedIn, subscriber };
  };

  try {
    const crowd: CrowdShopper[] = new Array(options.size);
    let next = 0;
    const worker = async () => {
      while (next < options.size) {
        const n = next++;
        crowd[n] = await one(n);
      }
    };
    await Promise.all(Array.from({ length: options.parallel ?? 8 }, worker));
    return crowd;
  } finally {
    await database.close();
  }
}
