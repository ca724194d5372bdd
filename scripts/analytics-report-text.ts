import type { FunnelStep } from "../server/domain/analytics-catalogue.ts";
import type { EventCount, FunnelDay } from "../server/store/analytics-repository.ts";

const stepNames: Record<FunnelStep, string> = {
  "funnel.product_page": "product page",
  "funnel.cart_add": "add to cart",
  "funnel.address": "address",
  "funnel.overview": "overview",
  "funnel.order_placed": "order placed",
};

/** "12.5%" of the step before; "-" where that step counted nothing. */
export function conversion(count: number, previous: number): string {
  return previous > 0 ? `${((count / previous) * 100).toFixed(1)}%` : "-";
}

/**
 * `npm run analytics:report`'s text: the funnel per day from the server's own counters,
 * each step with its count and its conversion from the step before, then the events
 * browsers sent most per day. Days are UTC days, newest first.
 */
export function analyticsReportText(
  funnel: readonly FunnelDay[],
  top: readonly EventCount[],
  days: number,
): string {
  const out: string[] = [];
  out.push(`Funnel per day (counted by the server; UTC days; the last ${days} day(s))`);
  if (funnel.length === 0) out.push("  No funnel counts.");
  const nameWidth = Math.max(...Object.values(stepNames).map((n) => n.length));
  for (const day of funnel) {
    out.push("", day.day);
    day.steps.forEach((step, i) => {
      const previous = day.steps[i - 1];
      const rate = previous ? conversion(step.count, previous.count) : "";
      out.push(
        `  ${stepNames[step.event].padEnd(nameWidth)}  ${String(step.count).padStart(7)}  ${rate.padStart(6)}`.trimEnd(),
      );
    });
    const first = day.steps[0]?.count ?? 0;
    const last = day.steps.at(-1)?.count ?? 0;
    out.push(`  ${"overall".padEnd(nameWidth)}  ${"".padStart(7)}  ${conversion(last, first).padStart(6)}`);
  }

  out.push("", `Top events per day (sent by browsers; the last ${days} day(s))`);
  if (top.length === 0) out.push("  No events.");
  const eventWidth = Math.max(5, ...top.map((r) => r.event.length));
  let day = "";
  for (const row of top) {
    if (row.day !== day) {
      day = row.day;
      out.push("", day);
    }
    out.push(`  ${row.event.padEnd(eventWidth)}  ${String(row.count).padStart(7)}`);
  }
  return `${out.join("\n")}\n`;
}
