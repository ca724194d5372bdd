import { type ExpressionBuilder, type Kysely, PostgresAdapter, sql } from "kysely";
import type { MailFileOf } from "../mail/mail-files.ts";
import { parked } from "../mail/outbox.ts";
import { erasedMailContent } from "../mail/outbox-erasure.ts";
import type { Schema } from "./schema.ts";

/** Staged uploads deleted per transaction: each holds its rows while their files go. */
const uploadBatch = 100;
/** Mails erased per transaction, likewise while their files go. */
const mailBatch = 100;

/**
 * What the clean-up job (server/jobs/clean-up.ts) deletes once it is old enough. Each call
 * works in short transactions and checks `signal` between them, so a shutdown waits for
 * one batch, never for the whole backlog.
 */
export interface RetentionRepository {
  /**
   * Folds raw analytics events received before `before` into analytics_events_daily and
   * deletes them: an hour at a time, each in one statement or transaction, so an event is
   * always in exactly one of the two tables. Answers how many raw rows were folded.
   */
  foldAnalyticsEvents(before: Date, signal?: AbortSignal): Promise<number>;
  /**
   * Deletes uploads that belong to no project and were uploaded before `before`. Each
   * batch's rows are deleted first (so nobody can attach them any more), then `removeFiles`
   * runs for them, then the batch commits: if removing files fails, the rows stay for the
   * next run. Answers how many went.
   */
  deleteStagedUploads(
    before: Date,
    removeFiles: (uploadId: string) => Promise<void>,
    signal?: AbortSignal,
    /**
     * A subscriber's photos are the subscription's storage: kept while it runs or is
     * suspended, and after it ended on or after this day (subscriber-storage.ts).
     */
    subscribersEndedFrom?: string,
  ): Promise<number>;
  /**
   * Deletes photo projects without photos, unchanged since `before`, that no cart line and
   * no order refers to. Answers how many went.
   */
  deleteEmptyProjects(before: Date): Promise<number>;
  /** Deletes the built-in test provider's payments created before `before`. Answers how many went. */
  deleteTestPayments(before: Date): Promise<number>;
  /**
   * Deletes cancellations and withdrawals sent with the public forms (migration 0021) received
   * before `before`, confirmed or not: the subscription's own transitions keep what they did.
   * Answers how many went.
   */
  deleteContractRequests(before: Date): Promise<number>;
  /**
   * Erases the content of mails sent before `before` (outbox-erasure.ts), and of parked
   * ones (never sent, tried no more) queued before it; queued mails still to be sent keep
   * theirs. Per batch the rows are erased, then `removeFiles` deletes their .eml files,
   * then the batch commits: if that fails, the mails keep their content for the next run.
   * Answers how many were erased.
   */
  eraseMailContent(
    before: Date,
    at: Date,
    removeFiles: (mails: MailFileOf[]) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<number>;
}

/** The start of the UTC hour after the one `at` (ISO text) falls in. */
const nextHour = (at: string) => new Date(Date.parse(`${at.slice(0, 13)}:00:00Z`) + 3_600_000).toISOString();

export function retentionRepository(db: Kysely<Schema>): RetentionRepository {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /** Folds every raw row received before `end` (ISO text). */
  const foldBefore = async (end: string): Promise<number> => {
    if (isPostgres) {
      // One statement: the rows a concurrent fold already took are not returned here, so
      // nothing is counted twice even without the job's lock.
      const { rows } = await sql<{ folded: string | number }>`
        with gone as (
          delete from analytics_events where received_at < ${end}
          returning received_at, event, route_id, locale, properties
        ), added as (
          insert into analytics_events_daily (day, event, route_id, locale, product_id, count)
          select substr(received_at, 1, 10), event, route_id, locale,
            coalesce(properties::json ->> 'productId', ''), count(*)
          from gone group by 1, 2, 3, 4, 5
          on conflict (day, event, route_id, locale, product_id)
          do update set count = analytics_events_daily.count + excluded.count
          returning 1
        )
        select count(*) as folded from gone`.execute(db);
      return Number(rows[0]?.folded ?? 0);
    }
    // SQLite has no delete in a common table expression; its one writer makes the
    // transaction as safe.
    return db.transaction().execute(async (trx) => {
      await sql`
        insert into analytics_events_daily (day, event, route_id, locale, product_id, count)
        select substr(received_at, 1, 10), event, route_id, locale,
          coalesce(cast(json_extract(properties, '$.productId') as text), ''), count(*)
        from analytics_events where received_at < ${end}
        group by 1, 2, 3, 4, 5
        on conflict (day, event, route_id, locale, product_id)
        do update set count = analytics_events_daily.count + excluded.count`.execute(trx);
      const result = await trx
        .deleteFrom("analytics_events")
        .where("received_at", "<", end)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  };

  return {
    async foldAnalyticsEvents(before, signal) {
      const cutoff = before.toISOString();
      let folded = 0;
      // An hour at a time: a backlog of months, or a day someone flooded, is many short
      // transactions (SQLite's one writer waits for each), not one long one.
      while (!signal?.aborted) {
        const oldest = await db
          .selectFrom("analytics_events")
          .select((eb) => eb.fn.min("received_at").as("at"))
          .where("received_at", "<", cutoff)
          .executeTakeFirst();
        if (!oldest?.at) break;
        const end = nextHour(oldest.at);
        folded += await foldBefore(end < cutoff ? end : cutoff);
      }
      return folded;
    },

    async deleteStagedUploads(before, removeFiles, signal, subscribersEndedFrom) {
      const cutoff = before.toISOString();
      let deleted = 0;
      while (!signal?.aborted) {
        const ids = await db.transaction().execute(async (trx) => {
          const gone = await trx
            .deleteFrom("uploads")
            .where("id", "in", (eb) =>
              eb
                .selectFrom("uploads")
                .select("id")
                .where("project_id", "is", null)
                .where("created_at", "<", cutoff)
                .$if(subscribersEndedFrom !== undefined, (query) =>
                  query.where(
                    "owner_id",
                    "not in",
                    eb
                      .selectFrom("accounts")
                      .innerJoin("subscriptions", "subscriptions.account_id", "accounts.id")
                      .select("accounts.owner_id")
                      .where((inner) =>
                        inner.or([
                          inner("subscriptions.status", "in", [
                            "active",
                            "past_due",
                            "suspended",
                            "cancelling",
                          ]),
                          inner.and([
                            inner("subscriptions.status", "in", ["cancelled", "withdrawn"]),
                            inner("subscriptions.ends_on", ">=", subscribersEndedFrom as string),
                          ]),
                        ]),
                      ),
                  ),
                )
                .orderBy("created_at")
                .limit(uploadBatch),
            )
            // Attached since the select: it is in a project now and stays.
            .where("project_id", "is", null)
            .returning("id")
            .execute();
          for (const { id } of gone) await removeFiles(id);
          return gone.map((row) => row.id);
        });
        deleted += ids.length;
        if (ids.length < uploadBatch) break;
      }
      return deleted;
    },

    async deleteEmptyProjects(before) {
      const result = await db
        .deleteFrom("photo_projects")
        .where("updated_at", "<", before.toISOString())
        .where((eb) =>
          eb.not(
            eb.or([
              eb.exists(
                eb
                  .selectFrom("uploads")
                  .select("id")
                  .whereRef("uploads.project_id", "=", "photo_projects.id"),
              ),
              // Cart and order lines refer to the project by a foreign key without a cascade.
              eb.exists(
                eb
                  .selectFrom("cart_lines")
                  .select("cart_id")
                  .whereRef("cart_lines.project_id", "=", "photo_projects.id"),
              ),
              eb.exists(
                eb
                  .selectFrom("order_lines")
                  .select("order_id")
                  .whereRef("order_lines.project_id", "=", "photo_projects.id"),
              ),
            ]),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async eraseMailContent(before, at, removeFiles, signal) {
      const cutoff = before.toISOString();
      let erased = 0;
      // Sent ones by when they were sent, then parked ones by when they were queued: each a
      // range of one index (outbox_unerased, outbox_pending).
      const kinds = [
        (eb: ExpressionBuilder<Schema, "outbox">) =>
          eb.and([eb("erased_at", "is", null), eb("sent_at", "<", cutoff)]),
        (eb: ExpressionBuilder<Schema, "outbox">) =>
          eb.and([
            eb("sent_at", "is", null),
            eb("next_attempt_at", "=", parked),
            eb("erased_at", "is", null),
            eb("created_at", "<", cutoff),
          ]),
      ];
      for (const due of kinds) {
        while (!signal?.aborted) {
          const mails = await db.transaction().execute(async (trx) => {
            const rows = await trx
              .updateTable("outbox")
              .set(erasedMailContent(at))
              .where("id", "in", (eb) => eb.selectFrom("outbox").select("id").where(due).limit(mailBatch))
              // Checked again on the row itself, as for the uploads.
              .where(due)
              .returning(["id", "kind", "created_at"])
              .execute();
            const files = rows.map((row) => ({ ...row, id: Number(row.id) }));
            await removeFiles(files);
            return files;
          });
          erased += mails.length;
          if (mails.length < mailBatch) break;
        }
      }
      return erased;
    },

    async deleteContractRequests(before) {
      const result = await db
        .deleteFrom("contract_requests")
        .where("received_at", "<", before.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteTestPayments(before) {
      const result = await db
        .deleteFrom("test_payments")
        .where("created_at", "<", before.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
