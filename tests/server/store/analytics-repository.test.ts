import { afterEach, describe, expect, it } from "vitest";
import { analyticsRepository } from "../../../server/store/analytics-repository.ts";
import { testDatabases } from "../../support/databases.ts";

describe.each(testDatabases())("the analytics repository on $name", (target) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
  });

  it("reports the top events per day, newest day first", async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    const analytics = analyticsRepository(opened.database.db);
    const day1 = new Date("2026-11-20T10:00:00Z");
    const day2 = new Date("2026-11-21T09:00:00Z");
    const events = (names: string[]) => ({
      route: "home",
      locale: "nl",
      events: names.map((event) => ({ event, properties: {} })),
    });
    await analytics.record(events(["a", "b", "b", "c"]), day1);
    await analytics.record(events(["c", "c", "c", "a"]), day2);
    await analytics.record(events(["old"]), new Date("2026-10-01T00:00:00Z"));

    const top = await analytics.topEventsPerDay({ days: 7, perDay: 2, now: day2 });
    expect(top).toEqual([
      { day: "2026-11-21", event: "c", count: 3 },
      { day: "2026-11-21", event: "a", count: 1 },
      { day: "2026-11-20", event: "b", count: 2 },
      { day: "2026-11-20", event: "a", count: 1 },
    ]);
  });
});
