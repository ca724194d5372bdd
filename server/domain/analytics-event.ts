import { type AnalyticsEventName, isAnalyticsEvent, propertiesOf } from "./analytics-catalogue.ts";

/**
 * The shape of an analytics batch, shared by the browser (which builds it) and the server
 * (which checks it). Names and properties come from the catalogue (analytics-catalogue.ts);
 * values are short scalars: no free text, no personal data.
 */
export const analyticsLimits = {
  eventsPerBatch: 20,
  valueLength: 100,
  batchBytes: 8 * 1024,
} as const;

export type AnalyticsValue = string | number | boolean;

export interface AnalyticsEvent {
  event: AnalyticsEventName;
  properties: Record<string, AnalyticsValue>;
}

export interface AnalyticsBatch {
  route: string;
  locale: string;
  events: AnalyticsEvent[];
}

/** Reads data-analytics-* attributes into properties: data-analytics-product-id -> productId. */
export function propertiesFromDataset(dataset: DOMStringMap): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(dataset)) {
    if (!key.startsWith("analytics") || key === "analytics" || value === undefined) continue;
    properties[key.charAt(9).toLowerCase() + key.slice(10)] = value;
  }
  return properties;
}

/**
 * An event as the server accepts it: a catalogue name with only that event's properties,
 * scalar values, strings cut to length. Undefined for a name outside the catalogue. The
 * browser sends only what passes here, so one mistaken attribute never costs a whole batch.
 */
export function catalogueEvent(
  name: string,
  properties: Record<string, unknown>,
): AnalyticsEvent | undefined {
  if (!isAnalyticsEvent(name)) return undefined;
  const kept: Record<string, AnalyticsValue> = {};
  for (const key of propertiesOf(name)) {
    const value = properties[key];
    if (typeof value === "string") kept[key] = value.slice(0, analyticsLimits.valueLength);
    else if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value)))
      kept[key] = value;
  }
  return { event: name, properties: kept };
}
