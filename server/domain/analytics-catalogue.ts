/**
 * The shop's analytics events: stable names and the properties each carries. Reports,
 * dashboards and tag-manager rules key on these names, so a name never changes meaning;
 * a new question gets a new event. Properties are public words and numbers only (product
 * ids, option values, positions, counts), never what a shopper typed: no property may be
 * named after a field of the address or contact form, because a submit button's event
 * reads the properties it lacks from its form's fields of the same name (islands/analytics).
 * The server refuses any other name or property (server/routes/analytics.ts).
 */
export const analyticsCatalogue = {
  // Product and cart
  "cart.add": ["productId", "orientation", "size", "quantity"],
  "product.option_change": ["productId", "option", "value"],
  "cart.quantity_change": ["productId", "quantity"],
  "cart.remove": ["productId"],
  // Checkout: click-level detail. The funnel counts these steps on the server (funnelSteps).
  "checkout.step": ["step"],
  "checkout.place_order": ["lines"],
  // Lists
  "product_card.click": ["productId", "list", "position"],
  "cross_sell.click": ["productId", "position"],
  // Widgets
  "carousel.move": ["carousel", "index", "via"],
  "viewer360.use": ["productId", "via"],
  "tabs.open": ["tab", "via"],
  "faq.open": ["topic"],
  // Search
  "search.submit": ["results", "via"],
  "search.result_click": ["kind", "position"],
  // Sharing and language
  share: ["network"],
  "locale.switch": ["from", "to"],
} as const satisfies Record<string, readonly string[]>;

export type AnalyticsEventName = keyof typeof analyticsCatalogue;
export type AnalyticsPropertiesOf<E extends AnalyticsEventName> = Partial<
  Record<(typeof analyticsCatalogue)[E][number], string | number | boolean>
>;

export const analyticsEventNames = Object.keys(analyticsCatalogue) as AnalyticsEventName[];

export function isAnalyticsEvent(name: string): name is AnalyticsEventName {
  return Object.hasOwn(analyticsCatalogue, name);
}

/** The properties an event may carry; empty for a name outside the catalogue. */
export function propertiesOf(name: string): readonly string[] {
  return isAnalyticsEvent(name) ? analyticsCatalogue[name] : [];
}

/** For editors (the analytics hook's contract, docs/hooks.md): what each event counts. */
export const analyticsEventMeaning: Record<AnalyticsEventName, string> = {
  "cart.add": "the add-to-cart button, with the option chosen at that moment",
  "product.option_change": "an option changed on the product page (option: orientation or size)",
  "cart.quantity_change": "a cart line's quantity updated",
  "cart.remove": "a cart line removed",
  "checkout.step": "a link or button to a checkout step (step: cartContents, cartAddress or cartOverview)",
  "checkout.place_order": "the place-order button (lines: how many cart lines)",
  "product_card.click": "a product card's link (list: home, category or related; position from 1)",
  "cross_sell.click": "a cart tip's link (position from 1)",
  "carousel.move": "the carousel moved by the shopper",
  "viewer360.use": "the 360-degree viewer used",
  "tabs.open": "a tab opened (via: tab, or link for a link to it)",
  "faq.open": "a FAQ topic opened (topic: its id in content/faq)",
  "search.submit": "a support search sent",
  "search.result_click": "a search result followed",
  share: "a share link or button (network)",
  "locale.switch": "the language switcher (from, to)",
};

/**
 * The funnel, counted by the server itself per day and language (server/http/analytics/analytics-counters.ts):
 * it works without JavaScript and no blocker stops it. Browsers cannot send these names, so a
 * step is never counted twice; reports read the funnel from these counters only.
 */
export const funnelSteps = [
  "funnel.product_page",
  "funnel.cart_add",
  "funnel.address",
  "funnel.overview",
  "funnel.order_placed",
] as const;

export type FunnelStep = (typeof funnelSteps)[number];

/**
 * Pages whose every view is a funnel step, by route id. The server counts a view as it
 * answers; a page fetched ahead of time (speculation rules) is counted only when the
 * shopper opens it, by the view beacon it sends then (islands/analytics/view-beacon.ts).
 */
export const funnelViewSteps = {
  product: "funnel.product_page",
  cartAddress: "funnel.address",
  cartOverview: "funnel.overview",
} as const satisfies Record<string, FunnelStep>;

export type FunnelViewRoute = keyof typeof funnelViewSteps;

export function isFunnelViewRoute(route: string): route is FunnelViewRoute {
  return Object.hasOwn(funnelViewSteps, route);
}
