import type { FastifyReply, FastifyRequest } from "fastify";
import { accountShown, headerCountShown, pageShows, type Shown } from "../http/caching/page-shows.ts";
import type { Services } from "../http/services.ts";
import type { Session } from "../store/session-repository.ts";

/**
 * Offers a signed-in page (kept under a digest of its data, pages.ts), as sent, to the same
 * browser again (ready-answers.ts) while what it shows holds: its account (page-shows.ts),
 * the header's count, and `also` (the photos' shopper revision). Everything the page shows
 * of the account must be read after the session, so that a change in between fails the
 * check. Only a plain 200 page is ever kept.
 */
export async function keepSignedInPage(
  services: Pick<Services, "accounts" | "carts" | "now">,
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  also?: Shown,
): Promise<void> {
  const shows = pageShows(
    accountShown(services.accounts, session, services.now),
    ...(also ? [also] : []),
    await headerCountShown(services.carts, request),
  );
  reply.keepReady(shows.holds);
  reply.pageSources = shows.sources;
}
