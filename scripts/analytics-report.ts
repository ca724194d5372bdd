// `npm run analytics:report [-- --days 7 --top 10]`: the most clicked events per day, from the shop's database.
import { parseArgs } from "node:util";
import { readConfig } from "../server/config.ts";
import { analyticsRepository } from "../server/store/analytics-repository.ts";
import { openDatabase } from "../server/store/database.ts";
import { migrateToLatest } from "../server/store/migrate.ts";

const { values } = parseArgs({
  options: { days: { type: "string", default: "7" }, top: { type: "string", default: "10" } },
});
const days = Math.max(1, Number(values.days) || 7);
const perDay = Math.max(1, Number(values.top) || 10);

const config = readConfig();
const database = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(database);
  const rows = await analyticsRepository(database.db).topEventsPerDay({ days, perDay });
  if (rows.length === 0) {
    console.log(`No click events in the last ${days} day(s).`);
  } else {
    const width = Math.max(5, ...rows.map((r) => r.event.length));
    let day = "";
    for (const row of rows) {
      if (row.day !== day) {
        day = row.day;
        console.log(`\n${day}`);
      }
      console.log(`  ${row.event.padEnd(width)}  ${String(row.count).padStart(7)}`);
    }
  }
} finally {
  await database.close();
}
