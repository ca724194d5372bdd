import type { Generated } from "kysely";

/** Table types as Kysely sees them. Timestamps are ISO-8601 UTC text so SQLite and PostgreSQL read the same. */
export interface CartsTable {
  id: string;
  created_at: string;
  updated_at: string;
}

export interface CartLinesTable {
  cart_id: string;
  product_id: string;
  orientation: string;
  size_id: string;
  quantity: number;
  added_at: string;
}

export interface AnalyticsEventsTable {
  id: Generated<number>;
  event: string;
  route_id: string;
  locale: string;
  /** JSON object of short scalar properties */
  properties: string;
  received_at: string;
}

export interface Schema {
  carts: CartsTable;
  cart_lines: CartLinesTable;
  analytics_events: AnalyticsEventsTable;
}
