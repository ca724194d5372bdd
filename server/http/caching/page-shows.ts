import type { FastifyRequest } from "fastify";
import type { AccountRepository } from "../../store/account-repository.ts";
import type { CartRepository } from "../../store/cart-repository.ts";
import type { PhotoProjectRepository } from "../../store/photo-project-repository.ts";
import type { Session } from "../../store/session-repository.ts";
import { readCartId } from "../cookies/cart-cookie.ts";
import { headerCartCount } from "../rendering/header-cart-count.ts";
import { allHold, type StillHolds } from "./ready-answers.ts";

/**
 * What a page of one shopper's own shows, declared once by its route: from that one list
 * come the name its rendering is kept under (pages.ts), the check a ready answer asks
 * before it is sent again (ready-answers.ts) and its ETag.
 *
 * Each part is a revision the database raises by itself, with triggers, whenever a row it
 * covers changes (migrations 0007, 0015, 0016), or something only the clock changes. A
 * route reads each part before the data it shows, so that a change in between fails the
 * check rather than keep a page that misses it. A test renders every such page and fails
 * when it read a table that none of its parts covers
 * (tests/server/pages-declare-what-they-show.test.ts).
 */
export type Source =
  /** A cart's revision: its lines, address and the photo books on its lines. */
  | "cart"
  /** An account's revision: its details, addresses, orders, sessions. */
  | "account"
  /** A shopper's revision (their photos and photo books, by owner id). */
  | "shopper"
  /** An order's status and address: orders have no revision, so the check reads the row again. */
  | "order"
  /** What changes with time alone: the part of the day, an offer's end. */
  | "clock";

export interface Shown {
  source: Source;
  /** What it is at the version read: part of the name the page is kept under. */
  name: string;
  holds: StillHolds;
  /**
   * The browser's own cart at a revision: the header's count is a sum of its lines, so the
   * revision names it too (pages.ts then counts the lines the page reads, asking nothing more).
   */
  coversHeaderCount?: true;
}

export interface PageShows {
  /** Every part's name: the page's name for what it shows. */
  key: string;
  sources: readonly Source[];
  /** Every part still holds. */
  holds: StillHolds;
  /** One part is the browser's own cart, which names the header's count as well. */
  coversHeaderCount: boolean;
}

export function pageShows(...parts: Shown[]): PageShows {
  return {
    key: parts.map((part) => part.name).join(" "),
    sources: [...new Set(parts.map((part) => part.source))],
    holds: allHold(...parts.map((part) => part.holds)),
    coversHeaderCount: parts.some((part) => part.coversHeaderCount),
  };
}

/**
 * The browser's cart at its revision now; undefined without a cart, or for one that is gone:
 * nothing to keep.
 */
export async function cartShown(carts: CartRepository, request: FastifyRequest): Promise<Shown | undefined> {
  const cartId = readCartId(request);
  if (!cartId) return undefined;
  const revision = await carts.revision(cartId);
  if (revision === undefined) return undefined;
  return {
    source: "cart",
    name: `cart ${cartId}@${revision}`,
    holds: { stored: async () => (await carts.revision(cartId)) === revision },
    coversHeaderCount: true,
  };
}

/**
 * The count in the page header of this browser's cart: part of every page. A ready answer
 * only goes to a browser sending the same cookies, so the same cart: its cookie is unsigned
 * once, here, not on every check.
 */
export async function headerCountShown(carts: CartRepository, request: FastifyRequest): Promise<Shown> {
  const cartId = readCartId(request);
  const countOf = async () => (cartId ? await carts.itemCount(cartId) : 0);
  const count = await headerCartCount(carts, request);
  return {
    source: "cart",
    name: `count ${count}`,
    holds: { stored: async () => (await countOf()) === count },
  };
}

/**
 * The signed-in account at its revision, read with the session in one statement
 * (session-repository.ts). The check does not resolve the session again (a join, a hash, a
 * signed cookie): the same cookies are the same session; ending it raises the revision, and
 * its end in time is known.
 */
export function accountShown(accounts: AccountRepository, session: Session, now: () => Date): Shown {
  const { account, accountRevision, endsAt } = session;
  return {
    source: "account",
    name: `account ${account.id}@${accountRevision}`,
    holds: {
      stored: async () => (await accounts.revision(account.id)) === accountRevision,
      meanwhile: () => now().getTime() < endsAt.getTime(),
    },
  };
}

/** A shopper's photos and photo books at their revision now. */
export async function shopperShown(projects: PhotoProjectRepository, owner: string): Promise<Shown> {
  const revision = await projects.shopperRevision(owner);
  return {
    source: "shopper",
    name: `shopper ${owner}@${revision}`,
    holds: { stored: async () => (await projects.shopperRevision(owner)) === revision },
  };
}

/** Something only time changes, as `current` tells it now (the part of the day, say). */
export function clockShown(label: string, current: () => string): Shown {
  const value = current();
  return { source: "clock", name: `${label} ${value}`, holds: { meanwhile: () => current() === value } };
}
