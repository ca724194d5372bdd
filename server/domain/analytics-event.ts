/**
 * The shape of a click-analytics batch, shared by the browser (which builds it) and
 * the server (which checks it). Properties are short scalars: no free text, no personal data.
 */
export const analyticsLimits = {
  eventsPerBatch: 20,
  propertiesPerEvent: 10,
  valueLength: 100,
  batchBytes: 8 * 1024,
} as const;

export const eventNamePattern = /^[a-z0-9][a-z0-9_.:-]{0,62}$/;
export const propertyNamePattern = /^[a-z][a-zA-Z0-9]{0,31}$/;

export type AnalyticsValue = string | number | boolean;

export interface AnalyticsEvent {
  event: string;
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
    const name = key.charAt(9).toLowerCase() + key.slice(10);
    if (propertyNamePattern.test(name)) properties[name] = value.slice(0, analyticsLimits.valueLength);
  }
  return properties;
}
