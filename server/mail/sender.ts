import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Kysely } from "kysely";
import type { Schema } from "../store/schema.ts";
import { parked } from "./outbox.ts";
import type { MailTransport, QueuedMail } from "./transport.ts";

/**
 * Delivers the outbox. Each instance of the shop runs one sender; several senders on one
 * database never send a mail twice because a sender first claims rows (a lease with its
 * name and an expiry, set in one conditional UPDATE) and only sends what it claimed. A
 * batch is claimed at once, but sending it can take longer than the lease (one slow SMTP
 * server), so right before each mail the sender renews its claim on that one row, again
 * in one conditional UPDATE; a mail whose claim lapsed or was taken over is left alone.
 * A failed delivery is tried again later, further apart each time; a sender that dies
 * leaves its claims to expire, after which another sender takes the mail over; a sender
 * that is stopped hands back the claims it has not used.
 */

export interface MailSender {
  /** Starts polling; also delivers what is due right away. */
  start(): void;
  /** Sends what is due now instead of at the next poll (after a mail was queued). */
  wake(): void;
  /** Finishes the mail in hand, hands back the claims on the rest, then stops for good. */
  stop(): Promise<void>;
  /** One pass: claims and delivers every due mail (until stopped). For tests. */
  runOnce(): Promise<{ sent: number; failed: number }>;
}

export interface MailSenderOptions {
  db: Kysely<Schema>;
  dialect: "sqlite" | "postgres";
  transport: MailTransport;
  /** Names this sender in the rows it claims. */
  instanceId?: string;
  pollMs?: number;
  batchSize?: number;
  /** How long a claim holds, renewed before each mail: longer than one delivery can take (the SMTP timeouts are 10 to 20 s). */
  leaseMs?: number;
  /** Delay before attempt n+1 after n failed attempts. */
  backoff?: (attempts: number) => number;
  /** After this many failed attempts a mail is parked: kept with its error, tried no more. */
  maxAttempts?: number;
  now?: () => Date;
  log?: Pick<Console, "info" | "warn" | "error">;
}

/** 30 s, 1 min, 2 min, 4 min … at most an hour between attempts. */
export function defaultBackoff(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export function createMailSender(options: MailSenderOptions): MailSender {
  const { db, transport } = options;
  const me = options.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`;
  const pollMs = options.pollMs ?? 5_000;
  const batchSize = options.batchSize ?? 10;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const backoff = options.backoff ?? defaultBackoff;
  const maxAttempts = options.maxAttempts ?? 25;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? console;

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;
  let started = false;
  /** Set by stop(): a pass looks at it between mails and between batches. */
  let stopping = false;
  /** Passes under way, the polling one and any runOnce() a caller started; stop() waits for them. */
  const passes = new Set<Promise<unknown>>();

  type ClaimedMail = QueuedMail & { attempts: number };

  async function claim(): Promise<ClaimedMail[]> {
    const at = now();
    const iso = at.toISOString();
    const until = new Date(at.getTime() + leaseMs).toISOString();
    const rows = await db
      .updateTable("outbox")
      .set({ claimed_by: me, claimed_until: until })
      .where("id", "in", (eb) => {
        const due = eb
          .selectFrom("outbox")
          .select("id")
          .where("sent_at", "is", null)
          .where("erased_at", "is", null)
          .where("next_attempt_at", "<=", iso)
          .where((w) => w.or([w("claimed_until", "is", null), w("claimed_until", "<=", iso)]))
          .orderBy("id")
          .limit(batchSize);
        // PostgreSQL: rows another sender is claiming this instant are skipped, not waited for.
        return options.dialect === "postgres" ? due.forUpdate().skipLocked() : due;
      })
      // Checked again on the row itself, so a claim made meanwhile by another sender wins
      // and a mail erased meanwhile (its account deleted) is not sent.
      .where("sent_at", "is", null)
      .where("erased_at", "is", null)
      .where((w) => w.or([w("claimed_until", "is", null), w("claimed_until", "<=", iso)]))
      .returning([
        "id",
        "kind",
        "locale",
        "to_address",
        "reply_to",
        "subject",
        "text_body",
        "html_body",
        "created_at",
        "attempts",
      ])
      .execute();
    return rows
      .map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }))
      .sort((a, b) => a.id - b.id);
  }

  /**
   * Extends this sender's claim on one mail just before it is sent, if the claim is still
   * this sender's and still holds. A batch's later rows may wait behind slow deliveries
   * until their claim lapses and another sender takes them; this check (one conditional
   * UPDATE, so two senders cannot both pass it) is what keeps both from sending them.
   */
  async function renew(mail: ClaimedMail): Promise<boolean> {
    const at = now();
    const result = await db
      .updateTable("outbox")
      .set({ claimed_until: new Date(at.getTime() + leaseMs).toISOString() })
      .where("id", "=", mail.id)
      .where("claimed_by", "=", me)
      .where("claimed_until", ">", at.toISOString())
      .where("sent_at", "is", null)
      // Erased since it was claimed (its account deleted): what the claim read must not go out.
      .where("erased_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Hands back claims this sender will not use, so the mail goes out now and not after the lease. */
  async function release(mails: ClaimedMail[]): Promise<void> {
    if (mails.length === 0) return;
    await db
      .updateTable("outbox")
      .set({ claimed_by: null, claimed_until: null })
      .where(
        "id",
        "in",
        mails.map((m) => m.id),
      )
      .where("claimed_by", "=", me)
      .where("sent_at", "is", null)
      .execute();
  }

  async function deliver(mail: ClaimedMail): Promise<boolean> {
    try {
      await transport.deliver(mail);
    } catch (err) {
      const attempts = mail.attempts + 1;
      const message = err instanceof Error ? err.message : String(err);
      const giveUp = attempts >= maxAttempts;
      const next = giveUp ? parked : new Date(now().getTime() + backoff(attempts)).toISOString();
      await db
        .updateTable("outbox")
        .set({
          attempts,
          next_attempt_at: next,
          last_error: (giveUp ? `gave up after ${attempts} attempts: ${message}` : message).slice(0, 500),
          claimed_by: null,
          claimed_until: null,
        })
        .where("id", "=", mail.id)
        .where("claimed_by", "=", me)
        .execute();
      const level = giveUp || attempts >= 5 ? "error" : "warn";
      log[level](`mail ${mail.id} (${mail.kind}) not delivered, attempt ${attempts}: ${message}`);
      return false;
    }
    // Recorded even if the claim lapsed during a very slow delivery: the mail did go out,
    // and saying so keeps any other sender from sending it again.
    const recorded = await db
      .updateTable("outbox")
      .set((eb) => ({
        attempts: eb("attempts", "+", 1),
        sent_at: now().toISOString(),
        last_error: null,
        claimed_by: null,
        claimed_until: null,
      }))
      .where("id", "=", mail.id)
      .where("sent_at", "is", null)
      .returning("erased_at")
      .executeTakeFirst();
    if (!recorded) {
      log.error(`mail ${mail.id} (${mail.kind}) was sent while another sender had already sent it`);
    } else if (recorded.erased_at !== null) {
      // Erased while it was on its way (its account deleted just then): it went out, but
      // what it left with the shop goes, as the erasure took everything else of it.
      await transport.forget?.(mail).catch((err: unknown) => {
        log.error(`mail ${mail.id} (${mail.kind}) was erased, but its copy stays: ${String(err)}`);
      });
    }
    return true;
  }

  async function pass(): Promise<{ sent: number; failed: number }> {
    let sent = 0;
    let failed = 0;
    while (!stopping) {
      const batch = await claim();
      for (const [index, mail] of batch.entries()) {
        if (stopping) {
          await release(batch.slice(index));
          return { sent, failed };
        }
        if (!(await renew(mail))) {
          log.info(`mail ${mail.id} (${mail.kind}) left alone: its claim lapsed or another sender took it`);
          continue;
        }
        if (await deliver(mail)) sent++;
        else failed++;
      }
      // A short batch means nothing more is due; failed mails wait for their next attempt.
      if (batch.length < batchSize) break;
    }
    return { sent, failed };
  }

  function runOnce(): Promise<{ sent: number; failed: number }> {
    const underway = pass();
    const settled = underway.catch(() => {});
    passes.add(settled);
    void settled.finally(() => passes.delete(settled));
    return underway;
  }

  function schedule(ms: number): void {
    if (!started || stopping) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  }

  function tick(): void {
    if (running) {
      again = true;
      return;
    }
    running = runOnce()
      .catch((err: unknown) => {
        // The database may be briefly away; the mail waits in it, and the next poll tries again.
        log.warn(`mail outbox not read: ${err instanceof Error ? err.message : String(err)}`);
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(pollMs);
      });
  }

  return {
    start() {
      // A stopped sender stays stopped (its transport is closed); a new one takes over.
      if (started || stopping) return;
      started = true;
      log.info(`mail sender ${me} delivering to ${transport.description}`);
      schedule(0);
    },
    wake() {
      schedule(0);
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await Promise.all([running, ...passes]);
      transport.close();
    },
    runOnce,
  };
}
