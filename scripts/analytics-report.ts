// `npm run analytics:report [-- --days 7 --top 10]`: the funnel per day (the server's own counts)
// and the events browsers sent most per day, from the shop's database.
import { parseArgs } from "node:util";
import { readConfig } from "../server/config.ts";
import { analyticsRepository } from "../server/store/analytics-repository.ts";
import { openDatabase } from "../server/store/database.ts";
import { migrateToLatest } from "../server/store/migrate.ts";
import { analyticsReportText } from "./analytics-report-text.ts";

const { values } = parseArgs({
  options: { days: { type: "string", default: "7" }, top: { type: "string", default: "10" } },
});
const days = Math.max(1, Number(values.days) || 7);
const perDay = Math.max(1, Number(values.top) || 10);

const config = readConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database);
  const analytics = analyticsRepository(database.db);
  const [funnel, top] = await Promise.all([
    analytics.funnelPerDay({ days }),
    analytics.topEventsPerDay({ days, perDay }),
  ]);
  process.stdout.write(analyticsReportText(funnel, top, days));
} finally {
  await database.close();
}
