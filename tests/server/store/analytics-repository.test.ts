import { describe, expect, it } from "vitest";
import type { AnalyticsEventName } from "../../../server/domain/analytics-catalogue.ts";
import { analyticsRepository, type DailyCount } from "../../../server/store/analytics-repository.ts";
import { databasePerTest, testDatabases } from "../../support/databases.ts";

describe.each(testDatabases())("the analytics repository on $name", (target) => {
  const openDatabase = databasePerTest(target);

  it("reports the top events per day, newest day first", async () => {
    const analytics = analyticsRepository((await openDatabase()).db);
    const day1 = new Date("2026-11-20T10:00:00Z");
    const day2 = new Date("2026-11-21T09:00:00Z");
    const events = (names: AnalyticsEventName[]) => ({
      route: "home",
      locale: "nl",
      events: names.map((event) => ({ event, properties: {} })),
    });
    await analytics.record(events(["share", "tabs.open", "tabs.open", "faq.open"]), day1);
    await analytics.record(events(["faq.open", "faq.open", "faq.open", "share"]), day2);
    await analytics.record(events(["cart.add"]), new Date("2026-10-01T00:00:00Z"));

    const top = await analytics.topEventsPerDay({ days: 7, perDay: 2, now: day2 });
    expect(top).toEqual([
      { day: "2026-11-21", event: "faq.open", count: 3 },
      { day: "2026-11-21", event: "share", count: 1 },
      { day: "2026-11-20", event: "tabs.open", count: 2 },
      { day: "2026-11-20", event: "faq.open", count: 1 },
    ]);
  });

  it("adds daily counts up, also across writes of several instances, and reads the funnel per day", async () => {
    const { db } = await openDatabase();
    const analytics = analyticsRepository(db);
    const count = (day: string, event: DailyCount["event"], n: number, productId = "", locale = "nl") => ({
      day,
      event,
      locale,
      productId,
      count: n,
    });
    // Two instances write the same keys: they add up.
    await analytics.addDailyCounts([
      count("2026-11-20", "funnel.product_page", 40, "canvas"),
      count("2026-11-20", "funnel.product_page", 20, "classic-prints"),
      count("2026-11-20", "funnel.cart_add", 6, "canvas"),
    ]);
    await analytics.addDailyCounts([
      count("2026-11-20", "funnel.product_page", 40, "canvas", "de"),
      count("2026-11-20", "funnel.product_page", 20, "canvas"),
      count("2026-11-20", "funnel.address", 4),
      count("2026-11-20", "funnel.overview", 3),
      count("2026-11-20", "funnel.order_placed", 2),
      count("2026-11-21", "funnel.product_page", 5, "canvas"),
      count("2026-11-10", "funnel.product_page", 99, "canvas"),
    ]);
    await analytics.addDailyCounts([]);

    const funnel = await analytics.funnelPerDay({ days: 7, now: new Date("2026-11-21T23:59:00Z") });
    expect(funnel).toEqual([
      {
        day: "2026-11-21",
        steps: [
          { event: "funnel.product_page", count: 5 },
          { event: "funnel.cart_add", count: 0 },
          { event: "funnel.address", count: 0 },
          { event: "funnel.overview", count: 0 },
          { event: "funnel.order_placed", count: 0 },
        ],
      },
      {
        day: "2026-11-20",
        steps: [
          { event: "funnel.product_page", count: 120 },
          { event: "funnel.cart_add", count: 6 },
          { event: "funnel.address", count: 4 },
          { event: "funnel.overview", count: 3 },
          { event: "funnel.order_placed", count: 2 },
        ],
      },
    ]);

    // Per product and language, as written.
    const canvas = await db
      .selectFrom("analytics_daily")
      .select(["locale", "count"])
      .where("day", "=", "2026-11-20")
      .where("event", "=", "funnel.product_page")
      .where("product_id", "=", "canvas")
      .orderBy("locale")
      .execute();
    expect(canvas.map((r) => [r.locale, Number(r.count)])).toEqual([
      ["de", 40],
      ["nl", 60],
    ]);
  });
});
