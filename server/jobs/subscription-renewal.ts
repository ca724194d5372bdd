import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { localMoment } from "../domain/delivery-times.ts";
import type { IsoDate } from "../domain/working-days.ts";
import type { RenewalCounts, SubscriptionCharges } from "../payments/subscription-charges.ts";
import { renewalLockKey, withJobLock } from "../store/clean-up-lock.ts";
import type { Database } from "../store/database.ts";

/** Hourly: a period's charge goes out within the hour its day begins, wherever the job runs. */
const everyMs = 60 * 60 * 1000;

export interface RenewalDeps {
  database: Database;
  charges: SubscriptionCharges;
  log: Pick<FastifyBaseLogger, "info" | "warn">;
}

export type RenewalRun = { ran: true; counts: RenewalCounts } | { ran: false };

/**
 * One renewal run for `asOf` (a day on the shop's calendar, today by default), under its
 * advisory lock: on PostgreSQL one instance at a time runs it, and one that finds the lock
 * taken does nothing. The charges' own claims make a second run, or one that overlaps on
 * SQLite (the command next to the running shop), charge nothing twice.
 */
export async function runRenewals(deps: RenewalDeps, asOf?: IsoDate): Promise<RenewalRun> {
  const day = asOf ?? localMoment(new Date()).date;
  const locked = await withJobLock(deps.database, renewalLockKey, () => deps.charges.renew(day));
  if (!locked.ran) {
    deps.log.info("renewal skipped: another instance is running it");
    return { ran: false };
  }
  deps.log.info({ asOf: day, ...locked.value }, "renewal done");
  return { ran: true, counts: locked.value };
}

/** Runs the renewal when the app is ready and every hour; a failed run is logged and tried next hour. */
export function scheduleRenewals(app: FastifyInstance, deps: Omit<RenewalDeps, "log">): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= runRenewals({ ...deps, log: app.log })
      .then(
        () => {},
        (err: unknown) => app.log.warn({ err }, "renewal could not run; tried again next hour"),
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
    await running;
  });
}
