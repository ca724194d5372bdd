import {
  analyticsEventNames,
  isAnalyticsEvent,
  propertiesOf,
} from "../../../server/domain/analytics-catalogue.ts";
import { allElements, inTemplateError, literal, type PageView, value } from "../dom.ts";
import { nearest } from "../edit-distance.ts";
import { attributeName } from "../locate.ts";
import type { Finding } from "../report.ts";

/** data-analytics-product-id -> productId, as the analytics behaviour reads it. */
const propertyName = (attribute: string) =>
  attribute.slice("data-analytics-".length).replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * A counted element whose event or property is not in the catalogue
 * (server/domain/analytics-catalogue.ts): the browser would leave it out and nobody would
 * notice the missing counts.
 */
export function analyticsEvents(view: PageView): Finding[] {
  const findings: Finding[] = [];
  for (const element of allElements(view.document)) {
    if (inTemplateError(element)) continue;
    const event = value(element, "data-analytics");
    // Properties without a name belong to an island that sends the event itself (faq.open).
    if (event === undefined) continue;
    if (!isAnalyticsEvent(event)) {
      const guess = nearest(event, analyticsEventNames, 3);
      findings.push({
        message: `unknown analytics event "${event}" (data-analytics): not in server/domain/analytics-catalogue.ts${guess ? `; did you mean "${guess}"?` : ""}`,
        texts: [literal(element, "data-analytics"), attributeName("data-analytics")],
      });
      continue;
    }
    for (const attribute of element.attributes) {
      if (!attribute.key.startsWith("data-analytics-")) continue;
      const property = propertyName(attribute.key);
      if (propertiesOf(event).includes(property)) continue;
      findings.push({
        message: `analytics event "${event}" has no property "${property}" (${attribute.key}); it takes ${propertiesOf(event).join(", ") || "none"}`,
        texts: [literal(element, attribute.key), attributeName(attribute.key)],
      });
    }
  }
  return findings;
}
