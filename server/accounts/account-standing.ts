import type { FastifyReply, FastifyRequest } from "fastify";
import { headerCountHolds } from "../cart/cart-standing.ts";
import { allHold, type StillHolds } from "../http/caching/ready-answers.ts";
import type { Services } from "../http/services.ts";
import type { AccountRepository } from "../store/account-repository.ts";
import type { Session } from "../store/session-repository.ts";

export interface AccountStanding {
  /** A name for the account as its pages show it: part of the name they are kept under (pages.ts). */
  name: string;
  /** The check for ready answers (ready-answers.ts): the session holds and the account is unchanged. */
  holds: StillHolds;
}

/**
 * What a signed-in page needs to be kept: the account's revision, read with the session in
 * one statement (session-repository.ts) and raised by the database with every change the
 * account's pages show, and with the end of any of its sessions (migration 0016). The check
 * does not resolve the session again (a join, a hash, a signed cookie): a ready answer only
 * ever goes to a browser sending the same cookies, so the same session; ending that session
 * raises the revision, and its end in time is known. Everything else the page shows of the
 * account must be read after the session, so that a change in between fails the check.
 */
export function accountStanding(
  accounts: AccountRepository,
  session: Session,
  now: () => Date,
): AccountStanding {
  const { account, accountRevision, endsAt } = session;
  return {
    name: `account ${account.id}@${accountRevision}`,
    holds: {
      stored: async () => (await accounts.revision(account.id)) === accountRevision,
      meanwhile: () => now().getTime() < endsAt.getTime(),
    },
  };
}

/**
 * Offers a signed-in page, as sent, to the same browser again (ready-answers.ts) while its
 * account stands (accountStanding), the header's count is the same, and `also` holds for
 * whatever else it shows (the photos' shopper revision). Only a plain 200 page is ever kept.
 */
export async function keepSignedInPage(
  services: Pick<Services, "accounts" | "carts" | "now">,
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  also?: StillHolds,
): Promise<void> {
  const standing = accountStanding(services.accounts, session, services.now);
  const headerHolds = await headerCountHolds(services.carts, request);
  reply.keepReady(allHold(standing.holds, ...(also ? [also] : []), headerHolds));
}
