import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import type { Retention } from "../../../server/config.ts";
import type { AnalyticsEventName } from "../../../server/domain/analytics-catalogue.ts";
import type { AnalyticsEvent } from "../../../server/domain/analytics-event.ts";
import { createI18n, loadMessages } from "../../../server/i18n/index.ts";
import { type CleanUpDeps, runCleanUp, testPaymentDays } from "../../../server/jobs/clean-up.ts";
import { enqueueMail, type OutgoingMail } from "../../../server/mail/outbox.ts";
import { createMailSender } from "../../../server/mail/sender.ts";
import { fileTransport } from "../../../server/mail/transport.ts";
import { queueSubscriptionExpiredMail } from "../../../server/payments/subscription-payments.ts";
import { testPaymentProvider } from "../../../server/payments/test-provider.ts";
import { analyticsRepository } from "../../../server/store/analytics-repository.ts";
import { cartRepository } from "../../../server/store/cart-repository.ts";
import { contractRequestRepository } from "../../../server/store/contract-request-repository.ts";
import { type Database, openDatabase } from "../../../server/store/database.ts";
import { photoProjectRepository } from "../../../server/store/photo-project-repository.ts";
import { randomId } from "../../../server/store/random-id.ts";
import { subscriptionRepository } from "../../../server/store/subscription-repository.ts";
import { uploadRepository } from "../../../server/store/upload-repository.ts";
import { diskPhotoStorage, type PhotoStorage, storageKeys } from "../../../server/uploads/photo-storage.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";
import { orderForBook } from "../../support/orders.ts";
import { confirmedSubscription } from "../../support/subscriptions.ts";

const now = new Date("2026-11-25T12:00:00Z");
const dayMs = 86_400_000;
/** A second past the window: old enough to go. */
const justOlder = (days: number) => new Date(now.getTime() - days * dayMs - 1000);
/** A second inside the window: still kept. */
const justYounger = (days: number) => new Date(now.getTime() - days * dayMs + 1000);
const defaults: Retention = {
  analyticsRawDays: 90,
  stagedUploadDays: 7,
  emptyProjectDays: 30,
  mailBodyDays: 30,
};
const book = { productId: "exclusive-photobook", orientation: "portrait", sizeId: "21x30" };

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function diskFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "shop-retention-"));
  folders.push(dir);
  return dir;
}

function diskStorage(): PhotoStorage {
  return diskPhotoStorage(diskFolder());
}

/** What the job logged as failing: a test reads it when a rule is meant to fail. */
function quietLog() {
  const warnings: unknown[] = [];
  const log = { info: () => {}, warn: (...args: unknown[]) => warnings.push(args) };
  return { log: log as unknown as CleanUpDeps["log"], warnings };
}

function cleanUp(
  database: Database,
  photoStorage: PhotoStorage,
  retention: Retention = defaults,
  log = quietLog().log,
) {
  return runCleanUp({ database, photoStorage, retention, log, now: () => now });
}

/** An upload as the intake stores it: the row and both files. */
async function stagePhoto(
  database: Database,
  storage: PhotoStorage,
  at: Date,
  projectId?: string,
  ownerId = "owner-a",
) {
  const id = randomId();
  await storage.put(storageKeys.original(id), Buffer.from("original"));
  await storage.put(storageKeys.thumbnail(id), Buffer.from("thumbnail"));
  await uploadRepository(database.db).add(
    {
      id,
      ownerId,
      originalName: "strand.jpg",
      format: "jpeg",
      width: 1200,
      height: 900,
      bytes: 8,
      ...(projectId ? { projectId } : {}),
    },
    at,
  );
  return id;
}

async function uploadIds(database: Database): Promise<string[]> {
  return (await database.db.selectFrom("uploads").select("id").execute()).map((r) => r.id).sort();
}

async function projectIds(database: Database): Promise<string[]> {
  return (await database.db.selectFrom("photo_projects").select("id").execute()).map((r) => r.id).sort();
}

/** Raw events of one kind at one moment, as browsers send them. */
async function sendEvents(
  database: Database,
  at: Date,
  event: AnalyticsEventName,
  times: number,
  {
    route = "product",
    locale = "nl",
    productId,
  }: { route?: string; locale?: string; productId?: string } = {},
) {
  await analyticsRepository(database.db).record(
    {
      route,
      locale,
      events: Array.from(
        { length: times },
        (): AnalyticsEvent => ({
          event,
          properties: productId ? { productId, position: 2 } : { via: "tab" },
        }),
      ),
    },
    at,
  );
}

async function dailyCounts(database: Database) {
  const rows = await database.db
    .selectFrom("analytics_events_daily")
    .selectAll()
    .orderBy("day")
    .orderBy("event")
    .orderBy("route_id")
    .orderBy("locale")
    .orderBy("product_id")
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

async function rawCount(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom("analytics_events")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Events on three old days and one young one; the old days' counts are what the daily table must say. */
async function analyticsHistory(database: Database) {
  const older = justOlder(defaults.analyticsRawDays);
  const weekBefore = new Date(older.getTime() - 7 * dayMs);
  await sendEvents(database, older, "cart.add", 3, { productId: "canvas" });
  await sendEvents(database, older, "cart.add", 1, { productId: "classic-prints", locale: "de" });
  await sendEvents(database, older, "tabs.open", 2, { route: "home" });
  await sendEvents(database, weekBefore, "cart.add", 5, { productId: "canvas" });
  await sendEvents(database, weekBefore, "faq.open", 4, { route: "faq", locale: "de" });
  await sendEvents(database, justYounger(defaults.analyticsRawDays), "cart.add", 2, { productId: "canvas" });
  const day = (at: Date) => at.toISOString().slice(0, 10);
  return {
    folded: 15,
    kept: 2,
    daily: [
      {
        day: day(weekBefore),
        event: "cart.add",
        route_id: "product",
        locale: "nl",
        product_id: "canvas",
        count: 5,
      },
      { day: day(weekBefore), event: "faq.open", route_id: "faq", locale: "de", product_id: "", count: 4 },
      {
        day: day(older),
        event: "cart.add",
        route_id: "product",
        locale: "de",
        product_id: "classic-prints",
        count: 1,
      },
      {
        day: day(older),
        event: "cart.add",
        route_id: "product",
        locale: "nl",
        product_id: "canvas",
        count: 3,
      },
      { day: day(older), event: "tabs.open", route_id: "home", locale: "nl", product_id: "", count: 2 },
    ],
  };
}

describe.each(testDatabases())("the clean-up job on $name", (target) => {
  const open = databasePerTest(target);

  it("folds analytics events a second past the raw window into daily counts per event, page, language and product, and keeps younger ones raw", async () => {
    const database = await open();
    const expected = await analyticsHistory(database);
    const report = () => analyticsRepository(database.db).topEventsPerDay({ days: 120, perDay: 10, now });
    const before = await report();

    const result = await cleanUp(database, diskStorage());
    expect(result).toMatchObject({ ran: true, failed: [] });
    expect(result.counts.analyticsEvents).toBe(expected.folded);
    expect(await rawCount(database)).toBe(expected.kept);
    expect(await dailyCounts(database)).toEqual(expected.daily);
    // The report reads raw rows and daily counts together: it says what it said before.
    expect(await report()).toEqual(before);

    // A second run finds nothing more to fold and counts nothing twice.
    expect((await cleanUp(database, diskStorage())).counts.analyticsEvents).toBe(0);
    expect(await dailyCounts(database)).toEqual(expected.daily);
  });

  it("adds to a day's counts when more of that day's events pass the window in a later run", async () => {
    const database = await open();
    const older = justOlder(defaults.analyticsRawDays);
    await sendEvents(database, older, "cart.add", 3, { productId: "canvas" });
    await cleanUp(database, diskStorage());
    // An hour later the next events of that same day have passed the window too.
    await sendEvents(database, new Date(older.getTime() + 60_000), "cart.add", 2, { productId: "canvas" });
    const anHourLater = new Date(now.getTime() + 3_600_000);
    await runCleanUp({
      database,
      photoStorage: diskStorage(),
      retention: defaults,
      log: quietLog().log,
      now: () => anHourLater,
    });
    expect((await dailyCounts(database)).map((r) => r.count)).toEqual([5]);
    expect(await rawCount(database)).toBe(0);
  });

  it("deletes a staged photo a second past its window, row and files, and keeps a younger one", async () => {
    const database = await open();
    const storage = diskStorage();
    const old = await stagePhoto(database, storage, justOlder(defaults.stagedUploadDays));
    const young = await stagePhoto(database, storage, justYounger(defaults.stagedUploadDays));

    const result = await cleanUp(database, storage);
    expect(result).toMatchObject({ ran: true, failed: [] });
    expect(result.counts.stagedUploads).toBe(1);
    expect(await uploadIds(database)).toEqual([young]);
    expect(await storage.read(storageKeys.original(old))).toBeUndefined();
    expect(await storage.read(storageKeys.thumbnail(old))).toBeUndefined();
    expect(await storage.read(storageKeys.original(young))).toEqual(Buffer.from("original"));
    expect(await storage.read(storageKeys.thumbnail(young))).toEqual(Buffer.from("thumbnail"));
  });

  it("keeps a subscriber's photos while the subscription lasts and 30 days after it ended, then treats them as anyone's", async () => {
    const database = await open();
    const storage = diskStorage();
    /** An account whose photos carry `owner`, with a subscription in `status` that ended on `endsOn`. */
    const subscriber = async (owner: string, status: string, endsOn: string | null) => {
      await database.db
        .insertInto("accounts")
        .values({
          id: `account-${owner}`,
          email: `${owner}@example.test`,
          email_key: `${owner}@example.test`,
          name: owner,
          password_hash: "x",
          locale: "nl",
          email_confirmed_at: now.toISOString(),
          owner_id: owner,
          cart_id: null,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .execute();
      await database.db
        .insertInto("subscriptions")
        .values({
          id: `subscription-${owner}`,
          owner_id: null,
          account_id: `account-${owner}`,
          plan_id: "plus",
          monthly_cents: 599,
          offer_cents: null,
          offer_months: null,
          locale: "nl",
          country: "NL",
          status,
          paid_until: null,
          ends_on: endsOn,
          created_at: now.toISOString(),
        })
        .execute();
    };
    await subscriber("running", "active", null);
    await subscriber("paused", "suspended", null);
    // Now is 25 November: 30 days back is 26 October.
    await subscriber("ended-lately", "cancelled", "2026-10-26");
    await subscriber("ended-long-ago", "cancelled", "2026-10-25");
    await subscriber("never-paid", "expired", null);
    const long = new Date(now.getTime() - 365 * dayMs);
    const photo = (owner: string) => stagePhoto(database, storage, long, undefined, owner);
    const kept = [await photo("running"), await photo("paused"), await photo("ended-lately")].sort();
    await photo("ended-long-ago");
    await photo("never-paid");
    await photo("a-guest");

    const result = await cleanUp(database, storage);
    expect(result.counts.stagedUploads).toBe(3);
    expect(await uploadIds(database)).toEqual(kept);
  });

  it("deletes an old staged photo whose files are already gone, without an error", async () => {
    const database = await open();
    const storage = diskStorage();
    const id = await stagePhoto(database, storage, justOlder(defaults.stagedUploadDays));
    await storage.remove(storageKeys.original(id));
    await storage.remove(storageKeys.thumbnail(id));
    const { log, warnings } = quietLog();

    const result = await cleanUp(database, storage, defaults, log);
    expect(result).toMatchObject({ ran: true, failed: [] });
    expect(result.counts.stagedUploads).toBe(1);
    expect(warnings).toEqual([]);
    expect(await uploadIds(database)).toEqual([]);
  });

  it("keeps old photos that are in a project, whether or not the project is in a cart", async () => {
    const database = await open();
    const storage = diskStorage();
    const projects = photoProjectRepository(database.db);
    const long = new Date(now.getTime() - 365 * dayMs);
    const inCart = await projects.create("owner-a", book, long);
    const onItsOwn = await projects.create("owner-a", book, long);
    const carts = cartRepository(database.db);
    const cart = await carts.create();
    await carts.add(cart, { ...book, projectId: inCart.id }, 1);
    const kept = [
      await stagePhoto(database, storage, long, inCart.id),
      await stagePhoto(database, storage, long, onItsOwn.id),
    ].sort();

    const result = await cleanUp(database, storage);
    expect(result.counts).toMatchObject({ stagedUploads: 0, emptyProjects: 0 });
    expect(await uploadIds(database)).toEqual(kept);
    for (const id of kept) expect(await storage.read(storageKeys.original(id))).toBeDefined();
    expect(await projectIds(database)).toEqual([inCart.id, onItsOwn.id].sort());
  });

  it("deletes an empty project a second past its window, and keeps younger ones and those a cart or an order refers to", async () => {
    const database = await open();
    const projects = photoProjectRepository(database.db);
    const older = justOlder(defaults.emptyProjectDays);
    const abandoned = await projects.create("owner-a", book, older);
    const young = await projects.create("owner-a", book, justYounger(defaults.emptyProjectDays));
    // Created long ago, but changed a moment ago: the window counts from the last change.
    const touched = await projects.create("owner-a", book, older);
    await projects.touch(touched.id, justYounger(defaults.emptyProjectDays));
    const inCart = await projects.create("owner-a", book, older);
    const carts = cartRepository(database.db);
    const cart = await carts.create();
    await carts.add(cart, { ...book, projectId: inCart.id }, 1);
    const ordered = await projects.create("owner-a", book, older);
    await orderForBook(database.db, ordered.id, "retention-order", cart);

    const result = await cleanUp(database, diskStorage());
    expect(result).toMatchObject({ ran: true, failed: [] });
    expect(result.counts.emptyProjects).toBe(1);
    expect(await projectIds(database)).toEqual([young.id, touched.id, inCart.id, ordered.id].sort());
    expect(await projectIds(database)).not.toContain(abandoned.id);
  });

  it("deletes a cart untouched a second longer than its cookie lives, and keeps a younger one", async () => {
    const database = await open();
    const carts = cartRepository(database.db);
    const abandoned = await carts.create();
    const inUse = await carts.create();
    const setUpdated = (id: string, at: Date) =>
      database.db.updateTable("carts").set({ updated_at: at.toISOString() }).where("id", "=", id).execute();
    await setUpdated(abandoned, justOlder(60));
    await setUpdated(inUse, justYounger(60));

    const result = await cleanUp(database, diskStorage());
    expect(result.counts.abandonedCarts).toBe(1);
    expect(await carts.exists(abandoned)).toBe(false);
    expect(await carts.exists(inUse)).toBe(true);
  });

  it("follows the settings: shorter windows delete what the defaults keep, longer ones keep what they delete", async () => {
    const database = await open();
    const storage = diskStorage();
    const twoDaysAgo = new Date(now.getTime() - 2 * dayMs);
    await sendEvents(database, twoDaysAgo, "share", 3);
    const photo = await stagePhoto(database, storage, twoDaysAgo);
    const project = await photoProjectRepository(database.db).create("owner-a", book, twoDaysAgo);

    const defaultsKeep = await cleanUp(database, storage);
    expect(defaultsKeep.counts).toMatchObject({ analyticsEvents: 0, stagedUploads: 0, emptyProjects: 0 });

    const short: Retention = {
      analyticsRawDays: 1,
      stagedUploadDays: 1,
      emptyProjectDays: 1,
      mailBodyDays: 1,
    };
    const shortGo = await cleanUp(database, storage, short);
    expect(shortGo.counts).toMatchObject({ analyticsEvents: 3, stagedUploads: 1, emptyProjects: 1 });
    expect(await uploadIds(database)).not.toContain(photo);
    expect(await projectIds(database)).not.toContain(project.id);

    const yearAgo = new Date(now.getTime() - 365 * dayMs);
    await sendEvents(database, yearAgo, "share", 1);
    await stagePhoto(database, storage, yearAgo);
    await photoProjectRepository(database.db).create("owner-a", book, yearAgo);
    const long: Retention = {
      analyticsRawDays: 400,
      stagedUploadDays: 400,
      emptyProjectDays: 400,
      mailBodyDays: 400,
    };
    const longKeep = await cleanUp(database, storage, long);
    expect(longKeep.counts).toMatchObject({ analyticsEvents: 0, stagedUploads: 0, emptyProjects: 0 });
  });

  it("keeps the rows of photos whose files could not be deleted for the next run, and still runs the other rules", async () => {
    const database = await open();
    const storage = diskStorage();
    const photo = await stagePhoto(database, storage, justOlder(defaults.stagedUploadDays));
    await sendEvents(database, justOlder(defaults.analyticsRawDays), "share", 2);
    const refusing: PhotoStorage = {
      ...storage,
      remove: async () => {
        throw new Error("read-only file system");
      },
    };
    const { log, warnings } = quietLog();

    const result = await cleanUp(database, refusing, defaults, log);
    expect(result.failed).toEqual(["stagedUploads"]);
    expect(warnings).toHaveLength(1);
    expect(await uploadIds(database)).toEqual([photo]);
    expect(result.counts.analyticsEvents).toBe(2);

    // The disk works again: the next run deletes it.
    expect((await cleanUp(database, storage)).counts.stagedUploads).toBe(1);
    expect(await uploadIds(database)).toEqual([]);
  });

  it(`deletes the test provider's payments a second past ${testPaymentDays} days, and keeps younger ones`, async () => {
    const database = await open();
    const provider = testPaymentProvider({
      db: database.db,
      checkoutUrl: (id) => id,
      log: { warn: () => {} },
    });
    const create = async (key: string, at: Date) => {
      const { id } = await provider.createPayment({
        amountCents: 4999,
        description: "Bestelling FH-100001",
        locale: "nl",
        redirectUrl: "http://shop.test/bestelling/FH-100001",
        webhookUrl: "http://shop.test/api/betalingen/webhook",
        idempotencyKey: key,
      });
      await database.db
        .updateTable("test_payments")
        .set({ created_at: at.toISOString() })
        .where("id", "=", id)
        .execute();
      return id;
    };
    const old = await create("old", justOlder(testPaymentDays));
    const young = await create("young", justYounger(testPaymentDays));

    const result = await cleanUp(database, diskStorage());
    expect(result.counts.testPayments).toBe(1);
    expect(await provider.getPayment(old)).toBeUndefined();
    expect((await provider.getPayment(young))?.status).toBe("open");
  });

  it(`deletes cancellations and withdrawals from the public forms a second past ${defaults.mailBodyDays} days, and keeps younger ones`, async () => {
    const database = await open();
    const requests = contractRequestRepository(database.db);
    const receive = (email: string, at: Date) =>
      database.db.transaction().execute((trx) =>
        requests.insert(
          trx,
          {
            kind: "cancel",
            locale: "nl",
            name: "Anna",
            email,
            contractRef: undefined,
            notice: "ordinary",
            reason: undefined,
            askedEndOn: undefined,
          },
          { subscriptionId: undefined, accountId: undefined },
          undefined,
          at,
        ),
      );
    await receive("old@example.test", justOlder(defaults.mailBodyDays));
    await receive("young@example.test", justYounger(defaults.mailBodyDays));

    const result = await cleanUp(database, diskStorage());
    expect(result.counts.contractRequests).toBe(1);
    const left = await database.db.selectFrom("contract_requests").select("email").execute();
    expect(left).toEqual([{ email: "young@example.test" }]);
  });

  it("expires a subscription unpaid a day after its confirmation, with one mail, and removes sign-up links past their day", async () => {
    const database = await open();
    const subscriptions = subscriptionRepository(database.db);
    const overdue = await confirmedSubscription(database.db, { email: "overdue@example.test", name: "Olga" });
    const recent = await confirmedSubscription(database.db, { email: "recent@example.test" });
    const confirmedAt = (id: string, at: Date) =>
      database.db
        .updateTable("subscriptions")
        .set({ created_at: at.toISOString() })
        .where("id", "=", id)
        .execute();
    await confirmedAt(overdue.id, new Date(now.getTime() - dayMs - 1000));
    await confirmedAt(recent.id, new Date(now.getTime() - dayMs + 1000));
    await database.db
      .updateTable("signups")
      .set({ created_at: justOlder(1).toISOString() })
      .execute();
    let queued = 0;

    const run = () =>
      runCleanUp({
        database,
        photoStorage: diskStorage(),
        retention: defaults,
        log: quietLog().log,
        now: () => now,
        onSubscriptionExpired: queueSubscriptionExpiredMail(
          createI18n(loadMessages(paths.locales), () => {}),
        ),
        mailQueued: () => {
          queued++;
        },
      });
    const result = await run();
    expect(result.counts).toMatchObject({ unpaidSubscriptions: 1, signups: 2 });
    expect((await subscriptions.get(overdue.id))?.status).toBe("expired");
    expect((await subscriptions.get(recent.id))?.status).toBe("awaiting_payment");
    const mails = await database.db
      .selectFrom("outbox")
      .selectAll()
      .where("kind", "=", "subscription-expired")
      .execute();
    expect(mails.map((m) => [m.to_address, m.subject])).toEqual([
      ["overdue@example.test", "Je aanmelding voor het fotoabonnement is vervallen"],
    ]);
    expect(mails[0]?.text_body).toContain("Hallo Olga,");
    expect(queued).toBe(1);
    // The next run finds nothing more to do.
    expect((await run()).counts).toMatchObject({ unpaidSubscriptions: 0, signups: 0 });
  });

  it(`erases a sent mail's text and .eml file a second past ${defaults.mailBodyDays} days, and keeps a younger one and one not yet sent`, async () => {
    const database = await open();
    const mailFolder = join(diskFolder(), "mail");
    const mail = (kind: string, link: string): OutgoingMail => ({
      kind,
      locale: "nl",
      to: "anna@example.nl",
      replyTo: "klantenservice@fotohoek.nl",
      subject: `Bestelling ${kind}`,
      text: `Hallo Anna,\n\nJe link: ${link}`,
      html: `<p>Hallo Anna, <a href="${link}">je link</a></p>`,
    });
    /** Queues a mail and sends it as the shop does without SMTP, at `at`. */
    const sendAt = async (kind: string, at: Date) => {
      const id = await enqueueMail(database.db, mail(kind, `https://shop.test/${kind}`), at);
      const sender = createMailSender({
        db: database.db,
        dialect: database.dialect,
        transport: fileTransport(mailFolder, "Fotohoek <klantenservice@fotohoek.nl>"),
        now: () => at,
        log: { info() {}, warn() {}, error() {} },
      });
      expect(await sender.runOnce()).toEqual({ sent: 1, failed: 0 });
      await sender.stop();
      return id;
    };
    const old = await sendAt("old-mail", justOlder(defaults.mailBodyDays));
    const young = await sendAt("young-mail", justYounger(defaults.mailBodyDays));
    // Queued long ago and not yet sent (its server is down, say): it still has to go out.
    const waiting = await enqueueMail(
      database.db,
      mail("waiting-mail", "https://shop.test/waiting"),
      justOlder(defaults.mailBodyDays),
    );
    const filesOf = (kind: string) => readdirSync(mailFolder).filter((name) => name.includes(kind));
    expect(filesOf("old-mail")).toHaveLength(1);
    expect(filesOf("young-mail")).toHaveLength(1);

    const result = await runCleanUp({
      database,
      photoStorage: diskStorage(),
      retention: defaults,
      log: quietLog().log,
      now: () => now,
      mailFolder,
    });
    expect(result.failed).toEqual([]);
    const row = (id: number) =>
      database.db.selectFrom("outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const erased = await row(old);
    // The record stays: what kind of mail, in which language, when, and that it went out.
    expect(erased).toMatchObject({ kind: "old-mail", locale: "nl", html_body: null, reply_to: null });
    expect(erased.sent_at).not.toBeNull();
    expect([erased.text_body, erased.subject, erased.to_address]).toEqual(["", "", ""]);
    expect(filesOf("old-mail")).toEqual([]);
    expect(await row(young)).toMatchObject({
      text_body: expect.stringContaining("https://shop.test/young-mail"),
    });
    expect(filesOf("young-mail")).toHaveLength(1);
    const queued = await row(waiting);
    expect(queued).toMatchObject({ sent_at: null, to_address: "anna@example.nl" });
    expect(queued.text_body).toContain("https://shop.test/waiting");
  });

  it(`erases a parked mail ${defaults.mailBodyDays} days after it was queued, and it stays parked`, async () => {
    const database = await open();
    const queuedAt = justOlder(defaults.mailBodyDays);
    const id = await enqueueMail(
      database.db,
      {
        kind: "password-reset",
        locale: "nl",
        to: "anna@example.nl",
        subject: "Reset",
        text: "https://shop.test/r",
      },
      queuedAt,
    );
    // The mail server refused it, and the sender gave up after its last attempt.
    const refusing = createMailSender({
      db: database.db,
      dialect: database.dialect,
      transport: {
        description: "a server that refuses",
        deliver: async () => {
          throw new Error("550 mailbox unavailable");
        },
        close() {},
      },
      maxAttempts: 1,
      now: () => queuedAt,
      log: { info() {}, warn() {}, error() {} },
    });
    expect(await refusing.runOnce()).toEqual({ sent: 0, failed: 1 });
    await refusing.stop();

    const result = await cleanUp(database, diskStorage());
    expect(result.counts.mailContent).toBe(1);
    const row = await database.db
      .selectFrom("outbox")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ sent_at: null, text_body: "", subject: "", to_address: "" });
    expect(row.last_error).toMatch(/gave up/);
  });

  it("counts nothing twice when two runs start at once", async () => {
    const database = await open();
    const expected = await analyticsHistory(database);
    const storage = diskStorage();
    await stagePhoto(database, storage, justOlder(defaults.stagedUploadDays));

    const runs = await Promise.all([cleanUp(database, storage), cleanUp(database, storage)]);
    expect(runs.flatMap((r) => r.failed)).toEqual([]);
    expect(runs.reduce((sum, r) => sum + r.counts.analyticsEvents, 0)).toBe(expected.folded);
    expect(runs.reduce((sum, r) => sum + r.counts.stagedUploads, 0)).toBe(1);
    expect(await dailyCounts(database)).toEqual(expected.daily);
  });
});

describe.each(testDatabases().filter((t) => t.name === "postgres"))(
  "two instances cleaning up on $name",
  (target) => {
    const open = databasePerTest(target);

    it("leave the run to the one that holds the lock: the other skips it, and nothing is counted twice", async () => {
      const database = await open();
      const expected = await analyticsHistory(database);
      const disk = diskStorage();
      await stagePhoto(database, disk, justOlder(defaults.stagedUploadDays));

      // The first instance's disk holds it mid-run, lock in hand, until the second has tried.
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const slowDisk: PhotoStorage = {
        ...disk,
        remove: async (key) => {
          entered();
          await released;
          await disk.remove(key);
        },
      };
      // The second instance: a pool of its own on the same schema.
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
      const other = openDatabase(process.env.TEST_DATABASE_URL ?? "", { schema: rows[0]?.schema });
      const first = cleanUp(database, slowDisk);
      await inside;
      const second = await cleanUp(other, disk).finally(() => other.close());
      release();

      expect(second).toEqual({
        ran: false,
        counts: {
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
        },
        failed: [],
      });
      const done = await first;
      expect(done).toMatchObject({ ran: true, failed: [] });
      expect(done.counts).toMatchObject({ stagedUploads: 1, analyticsEvents: expected.folded });
      expect(await dailyCounts(database)).toEqual(expected.daily);
      expect(await uploadIds(database)).toEqual([]);

      // Once the first is done, the lock is free again.
      expect((await cleanUp(database, disk)).ran).toBe(true);
    });
  },
);
