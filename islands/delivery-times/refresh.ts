import type { DeliveryOverview } from "../../server/domain/delivery-overview.ts";

/**
 * When the overview shown must be fetched again. The server says for how long its
 * answer holds (until the cut-off or midnight); that span is counted from the moment
 * the answer arrived, on the browser's own clock, so a clock that is set wrong does
 * not matter.
 */
export function msUntilStale(
  overview: DeliveryOverview | undefined,
  receivedAt: number,
  now: number,
): number {
  if (!overview) return 0;
  const holds = Date.parse(overview.refreshAt) - Date.parse(overview.generatedAt);
  if (!Number.isFinite(holds)) return 0;
  return Math.max(0, receivedAt + holds - now);
}

/** A second after the change, so the server has certainly passed it too; after a failure, once a minute. */
export function msUntilRefetch(
  overview: DeliveryOverview | undefined,
  receivedAt: number,
  now: number,
  failed: boolean,
): number {
  if (failed) return 60_000;
  return Math.max(1_000, msUntilStale(overview, receivedAt, now) + 1_000);
}

/** An answer the table can be drawn from: the shape the server sends, with at least one row. */
export function isUsableOverview(value: unknown): value is DeliveryOverview {
  const o = value as Partial<DeliveryOverview> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    typeof o.orderBefore === "string" &&
    typeof o.generatedAt === "string" &&
    typeof o.refreshAt === "string" &&
    Array.isArray(o.groups) &&
    o.groups.some(
      (g) => Array.isArray(g.rows) && g.rows.some((r) => Array.isArray(r.options) && r.options.length > 0),
    )
  );
}
