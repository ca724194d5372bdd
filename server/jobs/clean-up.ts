import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { Retention } from "../config.ts";
import { contractLinkDays } from "../domain/contract-requests.ts";
import { localMoment } from "../domain/delivery-times.ts";
import { unpaidExpiryHours } from "../domain/order-lifecycle.ts";
import { defaultSessionLifetimes, type SessionLifetimes } from "../domain/session-rules.ts";
import { photosKeptAfterEndDays } from "../domain/subscriber-storage.ts";
import { unpaidSubscriptionExpiryHours } from "../domain/subscription-lifecycle.ts";
import { cartLifetimeSeconds } from "../http/cookies/cart-cookie.ts";
import { removeMailFiles } from "../mail/mail-files.ts";
import { cartRepository } from "../store/cart-repository.ts";
import { withCleanUpLock } from "../store/clean-up-lock.ts";
import type { Database } from "../store/database.ts";
import { type AfterChange, orderLifecycleRepository } from "../store/order-lifecycle-repository.ts";
import { retentionRepository } from "../store/retention-repository.ts";
import { sessionRepository } from "../store/session-repository.ts";
import { signupLinkHours, signupRepository } from "../store/signup-repository.ts";
import { type AfterSubscriptionChange, subscriptionRepository } from "../store/subscription-repository.ts";
import { type PhotoStorage, removePhotoFiles } from "../uploads/photo-storage.ts";

/** Often enough that no table holds much more than it should keep. */
const everyMs = 6 * 60 * 60 * 1000;
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/**
 * Days the built-in test provider keeps a payment. Long after anything could ask about it:
 * what it paid for expired unpaid after a day, or was decided.
 */
export const testPaymentDays = 30;

export interface CleanUpDeps {
  database: Database;
  photoStorage: PhotoStorage;
  retention: Retention;
  log: Pick<FastifyBaseLogger, "info" | "warn">;
  /** The moment the windows count back from; the real clock by default. */
  now?: () => Date;
  /** Runs in the transaction that expires an order unpaid: its "order expired" mail. */
  onOrderExpired?: AfterChange;
  /** Likewise for a subscription whose first period was not paid in time. */
  onSubscriptionExpired?: AfterSubscriptionChange;
  /** How long sessions hold (SESSION_IDLE_HOURS, SESSION_MAX_DAYS): ended ones are deleted. */
  sessions?: SessionLifetimes;
  /** Told after orders expired, so their mails go out now rather than at the next poll. */
  mailQueued?: () => void;
  /** Where mails are written as .eml files (no SMTP_URL): an erased mail's file goes too. */
  mailFolder?: string;
}

export type CleanUpRule =
  | "abandonedCarts"
  | "emptyProjects"
  | "stagedUploads"
  | "analyticsEvents"
  | "unpaidOrders"
  | "unpaidSubscriptions"
  | "signups"
  | "endedSessions"
  | "testPayments"
  | "contractRequests"
  | "mailContent";

export interface CleanUpResult {
  /** false: another instance held the lock, and does the work. */
  ran: boolean;
  /**
   * Per rule, how many went: carts, projects, uploads, raw analytics rows folded into daily
   * counts, orders and subscriptions expired unpaid, sign-up links past their day, sessions
   * past their end, the test provider's payments past testPaymentDays, cancellations and
   * withdrawals from the public forms as old as the mails' content, and the mails whose
   * content (and .eml file) was erased MAIL_BODY_DAYS after they were sent.
   */
  counts: Record<CleanUpRule, number>;
  /** Rules that failed this time (logged; tried again next run). */
  failed: CleanUpRule[];
}

/**
 * One run of every retention rule, under one lock for the whole run, so on PostgreSQL one
 * instance at a time does it. A rule that fails is logged and the others still run.
 * Carts go first: the cart lines they take with them may be what kept a project. Unpaid
 * orders and subscriptions expire after retention's rules: rules of their lives, they delete
 * nothing.
 * With `signal` aborted, the rules stop after the batch in hand (the shop is closing).
 */
export async function runCleanUp(deps: CleanUpDeps, signal?: AbortSignal): Promise<CleanUpResult> {
  const { database, photoStorage, retention, log } = deps;
  const now = (deps.now ?? (() => new Date()))().getTime();
  const daysAgo = (days: number) => new Date(now - days * dayMs);
  const counts: Record<CleanUpRule, number> = {
    abandonedCarts: 0,
    emptyProjects: 0,
    stagedUploads: 0,
    analyticsEvents: 0,
    unpaidOrders: 0,
    unpaidSubscriptions: 0,
    signups: 0,
    endedSessions: 0,
    testPayments: 0,
    contractRequests: 0,
    mailContent: 0,
  };
  const failed: CleanUpRule[] = [];

  const locked = await withCleanUpLock(database, async (db) => {
    const retained = retentionRepository(db);
    const rules: Array<[CleanUpRule, () => Promise<number>]> = [
      [
        "abandonedCarts",
        () => cartRepository(db).deleteAbandoned(new Date(now - cartLifetimeSeconds * 1000)),
      ],
      ["emptyProjects", () => retained.deleteEmptyProjects(daysAgo(retention.emptyProjectDays))],
      [
        "stagedUploads",
        () =>
          retained.deleteStagedUploads(
            daysAgo(retention.stagedUploadDays),
            (id) => removePhotoFiles(photoStorage, id),
            signal,
            // A subscription's photos stay while it lasts, and some days after (subscriber-storage.ts).
            localMoment(daysAgo(photosKeptAfterEndDays)).date,
          ),
      ],
      ["analyticsEvents", () => retained.foldAnalyticsEvents(daysAgo(retention.analyticsRawDays), signal)],
      [
        "unpaidOrders",
        () =>
          orderLifecycleRepository(db).expireUnpaid(new Date(now - unpaidExpiryHours * hourMs), {
            at: new Date(now),
            ...(deps.onOrderExpired ? { afterChange: deps.onOrderExpired } : {}),
          }),
      ],
      [
        "unpaidSubscriptions",
        () =>
          subscriptionRepository(db).expireUnpaid(new Date(now - unpaidSubscriptionExpiryHours * hourMs), {
            at: new Date(now),
            ...(deps.onSubscriptionExpired ? { afterChange: deps.onSubscriptionExpired } : {}),
          }),
      ],
      [
        "signups",
        () =>
          signupRepository(db, subscriptionRepository(db)).deleteBefore(
            new Date(now - signupLinkHours * hourMs),
          ),
      ],
      [
        "endedSessions",
        () => sessionRepository(db, deps.sessions ?? defaultSessionLifetimes).deleteEnded(new Date(now)),
      ],
      ["testPayments", () => retained.deleteTestPayments(daysAgo(testPaymentDays))],
      [
        "contractRequests",
        // As long as the mails that report them keep their content, and never before their links expire.
        () => retained.deleteContractRequests(daysAgo(Math.max(retention.mailBodyDays, contractLinkDays))),
      ],
      [
        "mailContent",
        () =>
          retained.eraseMailContent(
            daysAgo(retention.mailBodyDays),
            new Date(now),
            (mails) => removeMailFiles(deps.mailFolder, mails),
            signal,
          ),
      ],
    ];
    for (const [rule, apply] of rules) {
      if (signal?.aborted) break;
      try {
        counts[rule] = await apply();
      } catch (err) {
        failed.push(rule);
        log.warn({ err, rule }, "clean-up rule failed; tried again next run");
      }
    }
  });

  if (!locked.ran) {
    log.info("clean-up skipped: another instance is running it");
    return { ran: false, counts, failed };
  }
  const expiryMails =
    (counts.unpaidOrders > 0 && deps.onOrderExpired) ||
    (counts.unpaidSubscriptions > 0 && deps.onSubscriptionExpired);
  if (expiryMails) deps.mailQueued?.();
  log.info({ ...counts, failed }, "clean-up done");
  return { ran: true, counts, failed };
}

/**
 * Runs the clean-up once when the app is ready (not awaited: a large first run must not
 * hold up start-up), then every few hours. A run that fails as a whole (the database
 * away) is logged and tried again next time: it never stops the shop. Closing the app
 * asks a run in flight to stop after its batch in hand and waits for it, since the
 * database closes after the app.
 */
export function scheduleCleanUp(app: FastifyInstance, deps: Omit<CleanUpDeps, "log">): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const closing = new AbortController();

  const run = () => {
    running ??= runCleanUp({ ...deps, log: app.log }, closing.signal)
      .then(
        () => {},
        (err: unknown) => app.log.warn({ err }, "clean-up could not run; tried again next time"),
      )
      .finally(() => {
        running = undefined;
      });
  };

  app.addHook("onReady", async () => {
    run();
    timer = setInterval(run, everyMs);
    timer.unref();
  });
  app.addHook("onClose", async () => {
    clearInterval(timer);
    closing.abort();
    await running;
  });
}
