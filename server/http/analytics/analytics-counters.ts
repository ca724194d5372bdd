import type { FastifyBaseLogger } from "fastify";
import type { FunnelStep } from "../../domain/analytics-catalogue.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { DailyCount } from "../../store/analytics-repository.ts";

/**
 * The funnel's counters, added up in memory and written now and then as daily totals: a
 * page view costs a map update, never a database write. Nothing about the shopper is
 * kept, only the step, the UTC day, the language and (where useful) the product.
 */
export interface AnalyticsCounters {
  count(event: FunnelStep, locale: Locale, productId?: string): void;
  /** Writes what was counted since the last flush; counts that fail to write wait for the next one. */
  flush(): Promise<void>;
}

export interface AnalyticsCountersOptions {
  write(counts: DailyCount[]): Promise<void>;
  now?: () => Date;
  log?: Pick<FastifyBaseLogger, "warn">;
}

/**
 * Distinct keys held while the database does not answer: a few days of every step, language
 * and product. Beyond it new keys are dropped (and said once): the shop never runs out of memory
 * over its statistics.
 */
const maxKeys = 10_000;

export function analyticsCounters({
  write,
  now = () => new Date(),
  log,
}: AnalyticsCountersOptions): AnalyticsCounters {
  let pending = new Map<string, DailyCount>();
  let writing: Promise<void> | undefined;
  let warnedFull = false;
  /** The UTC day of the last count, kept until the clock leaves it. */
  let day = "";
  let dayStarts = Number.POSITIVE_INFINITY;
  let dayEnds = Number.NEGATIVE_INFINITY;
  const dayOf = (at: Date) => {
    const t = at.getTime();
    if (t < dayStarts || t >= dayEnds) {
      day = at.toISOString().slice(0, 10);
      dayStarts = Date.parse(day);
      dayEnds = dayStarts + 86_400_000;
    }
    return day;
  };

  const keyOf = (on: string, event: string, locale: string, productId: string) =>
    `${on} ${event} ${locale} ${productId}`;
  const add = (into: Map<string, DailyCount>, c: DailyCount) => {
    const key = keyOf(c.day, c.event, c.locale, c.productId);
    const held = into.get(key);
    if (held) held.count += c.count;
    else if (into.size < maxKeys) into.set(key, { ...c });
    else if (!warnedFull) {
      warnedFull = true;
      log?.warn("analytics counters full: new counts are dropped until the database answers again");
    }
  };

  const writeOnce = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await write([...batch.values()]);
      warnedFull = false;
    } catch (err) {
      // Kept for the next flush, added to whatever was counted meanwhile.
      for (const c of batch.values()) add(pending, c);
      log?.warn({ err }, "analytics counters not written; trying again later");
    }
  };

  return {
    // On every funnel page view: no date formatting and no allocation once the key is held.
    count(event, locale, productId = "") {
      const on = dayOf(now());
      const held = pending.get(keyOf(on, event, locale, productId));
      if (held) held.count++;
      else add(pending, { day: on, event, locale, productId, count: 1 });
    },
    async flush() {
      // One write at a time: a flush asked for meanwhile writes after it, with what came since.
      while (writing) await writing;
      writing = writeOnce().finally(() => {
        writing = undefined;
      });
      await writing;
    },
  };
}
