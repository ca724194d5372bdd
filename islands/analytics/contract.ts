import {
  analyticsCatalogue,
  analyticsEventMeaning,
  analyticsEventNames,
} from "../../server/domain/analytics-catalogue.ts";
import { defineHook, z } from "../runtime/define-hook.ts";

/** "cart.add (productId, orientation, size, quantity): the add-to-cart button, …", one per event. */
const catalogueText = analyticsEventNames
  .map((name) => {
    const properties = analyticsCatalogue[name];
    return `${name}${properties.length ? ` (${properties.join(", ")})` : ""}: ${analyticsEventMeaning[name]}`;
  })
  .join("; ");

export const contract = defineHook({
  hook: "analytics",
  kind: "behaviour",
  whenToUse:
    "On a link or button whose clicks the shop wants counted (a product card, a checkout step, a share button), with an event name from the catalogue (server/domain/analytics-catalogue.ts) and that event's properties. Islands report their own events with track(). Never for personal data: properties are short, public words. The funnel (product page, add to cart, address, overview, order placed) needs no attribute: the server counts it, also without JavaScript.",
  attributes: z.object({
    // Optional: the behaviour also starts on pages whose islands report events (registry.ts).
    "data-analytics": z
      .enum(analyticsEventNames as [string, ...string[]])
      .optional()
      .describe(
        "The event a click on this element counts: one of the catalogue's names, which the server accepts (any other is not sent). Without it the element is not counted",
      ),
    "data-analytics-*": z
      .string()
      .optional()
      .describe(
        `The event's properties, only those the catalogue lists for it: data-analytics-product-id="canvas" sends productId. A submit button's event reads a property it lacks from its form's field of that name as the form is sent. The catalogue: ${catalogueText}`,
      ),
  }),
});
