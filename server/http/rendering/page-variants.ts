import type { Services } from "../services.ts";
import type { PageOptions } from "./pages.ts";

/** What a kept page shows besides its address that can change while it is kept, and how to tell. */
export type PageVariant = Required<Pick<PageOptions, "cacheVariant" | "currentVariant">>;

/**
 * Pages with dispatch or delivery dates: they change at the order cut-off and at midnight.
 * `now` is the moment the page's dates are worked out from, so a copy never holds another
 * part of the day's dates than its name says.
 */
export function partOfTheDay(services: Services, now: Date): PageVariant {
  const { deliveryTimes } = services;
  return {
    cacheVariant: deliveryTimes.period(now),
    currentVariant: () => deliveryTimes.period(services.now()),
  };
}

/** Pages that show the FAQ: a new version of its files (an editor's change) gets new copies. */
export function faqVersion(services: Services): PageVariant {
  const name = () => `faq-${services.faq.version()}`;
  return { cacheVariant: name(), currentVariant: name };
}
