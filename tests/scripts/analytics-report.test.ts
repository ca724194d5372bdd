import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { analyticsReportText, conversion } from "../../scripts/analytics-report-text.ts";
import { projectRoot } from "../../server/config.ts";
import type { AnalyticsEvent } from "../../server/domain/analytics-event.ts";
import { type CleanUpDeps, runCleanUp } from "../../server/jobs/clean-up.ts";
import { analyticsRepository, type DailyCount } from "../../server/store/analytics-repository.ts";
import { openDatabase } from "../../server/store/database.ts";
import { migrateToLatest } from "../../server/store/migrate.ts";
import { diskPhotoStorage } from "../../server/uploads/photo-storage.ts";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "analytics-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (day: string, event: DailyCount["event"], n: number, locale = "nl", productId = "") => ({
  day,
  event,
  locale,
  productId,
  count: n,
});

describe("the funnel's conversion", () => {
  it("is a percentage of the step before, with one decimal, and a dash after a step that counted nothing", () => {
    expect(conversion(1, 8)).toBe("12.5%");
    expect(conversion(2, 3)).toBe("66.7%");
    expect(conversion(0, 5)).toBe("0.0%");
    expect(conversion(3, 0)).toBe("-");
  });
});

describe("npm run analytics:report", () => {
  it("prints the funnel per day from the server's counters, with conversions, and the top browser events", async () => {
    // Today and yesterday (UTC), with a window of three days, so a midnight during the test changes nothing.
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
    const longAgo = new Date(now.getTime() - 30 * 86_400_000).toISOString().slice(0, 10);

    const database = openDatabase(`sqlite://${join(dir, "shop.db")}`);
    await migrateToLatest(database);
    const analytics = analyticsRepository(database.db);
    await analytics.addDailyCounts([
      count(yesterday, "funnel.product_page", 150, "nl", "canvas"),
      count(yesterday, "funnel.product_page", 50, "de", "canvas"),
      count(yesterday, "funnel.cart_add", 20, "nl", "canvas"),
      count(yesterday, "funnel.address", 10),
      count(yesterday, "funnel.overview", 8),
      count(yesterday, "funnel.order_placed", 6),
      count(today, "funnel.product_page", 40, "nl", "canvas"),
      count(today, "funnel.order_placed", 1),
      count(longAgo, "funnel.product_page", 999, "nl", "canvas"),
    ]);
    // Browser events for the same steps never reach the funnel.
    await analytics.record(
      {
        route: "product",
        locale: "nl",
        events: [
          { event: "cart.add", properties: { productId: "canvas" } },
          { event: "cart.add", properties: { productId: "canvas" } },
          { event: "share", properties: { network: "whatsapp" } },
        ],
      },
      now,
    );
    await database.close();

    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/analytics-report.ts", "--days", "3", "--top", "5"],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          DATABASE_URL: `sqlite://${join(dir, "shop.db")}`,
          DATA_DIR: dir,
          COOKIE_SECRET: "analytics-report-test-secret-0123456789",
          LOG_LEVEL: "silent",
        },
      },
    );
    expect(stdout).toBe(
      [
        "Funnel per day (counted by the server; UTC days; the last 3 day(s))",
        "",
        today,
        "  product page       40",
        "  add to cart         0    0.0%",
        "  address             0       -",
        "  overview            0       -",
        "  order placed        1       -",
        "  overall                  2.5%",
        "",
        yesterday,
        "  product page      200",
        "  add to cart        20   10.0%",
        "  address            10   50.0%",
        "  overview            8   80.0%",
        "  order placed        6   75.0%",
        "  overall                  3.0%",
        "",
        "Top events per day (sent by browsers; the last 3 day(s))",
        "",
        today,
        "  cart.add        2",
        "  share           1",
        "",
      ].join("\n"),
    );
  });

  it("shows days past the raw window from their daily counts, next to recent raw events", async () => {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const old = new Date(now.getTime() - 100 * 86_400_000);
    const file = join(dir, "folded.db");
    const database = openDatabase(`sqlite://${file}`);
    await migrateToLatest(database);
    const analytics = analyticsRepository(database.db);
    const cartAdds = (n: number) =>
      Array.from({ length: n }, (): AnalyticsEvent => ({ event: "cart.add", properties: {} }));
    await analytics.record({ route: "product", locale: "nl", events: cartAdds(3) }, old);
    await analytics.record(
      { route: "home", locale: "de", events: [{ event: "share", properties: {} }] },
      old,
    );
    await analytics.record({ route: "product", locale: "nl", events: cartAdds(2) }, now);
    const quiet = { info: () => {}, warn: () => {} } as unknown as CleanUpDeps["log"];
    const cleaned = await runCleanUp({
      database,
      photoStorage: diskPhotoStorage(join(dir, "uploads")),
      retention: { analyticsRawDays: 90, stagedUploadDays: 7, emptyProjectDays: 30, mailBodyDays: 30 },
      log: quiet,
    });
    expect(cleaned.counts.analyticsEvents).toBe(4);
    await database.close();

    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/analytics-report.ts", "--days", "101", "--top", "5"],
      {
        cwd: projectRoot,
        env: {
          ...process.env,
          DATABASE_URL: `sqlite://${file}`,
          DATA_DIR: dir,
          COOKIE_SECRET: "analytics-report-test-secret-0123456789",
          LOG_LEVEL: "silent",
        },
      },
    );
    expect(stdout).toContain(
      [
        "",
        today,
        "  cart.add        2",
        "",
        old.toISOString().slice(0, 10),
        "  cart.add        3",
        "  share           1",
        "",
      ].join("\n"),
    );
  });

  it("says so when nothing was counted", () => {
    expect(analyticsReportText([], [], 7)).toBe(
      [
        "Funnel per day (counted by the server; UTC days; the last 7 day(s))",
        "  No funnel counts.",
        "",
        "Top events per day (sent by browsers; the last 7 day(s))",
        "  No events.",
        "",
      ].join("\n"),
    );
  });
});
