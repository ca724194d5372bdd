import { intlLocale, type Locale } from "../i18n/locales.ts";
import { workingDaysText } from "../i18n/product-texts.ts";
import type { Translate } from "../i18n/translate.ts";
import type { Catalogue, Product } from "./catalogue.ts";
import { capitalize, type DayTexts, dayPhrase, windowText } from "./delivery-texts.ts";
import {
  type CutOff,
  type DayWindow,
  estimate,
  formatCutOff,
  localMoment,
  nextChange,
} from "./delivery-times.ts";
import { formatPrice } from "./money.ts";
import type { Country } from "./working-days.ts";

/**
 * The delivery times of the catalogue's products in the shopper's words: the overview
 * page, its JSON (the delivery-times island renders exactly this), the product page's
 * expected dispatch and the cart's. Production times come from the catalogue; the
 * working days are those of the shopper's country.
 */

export const countryOf: Record<Locale, Country> = { nl: "NL", de: "DE" };

export type ProductionKind = "standard" | "rush";

export interface DeliveryOption {
  kind: ProductionKind;
  /** "Standaard" / "Spoed": the rush variant is named in words, not only shown in red. */
  label: string;
  /** "3 tot 5 werkdagen" */
  days: string;
  /** "+ € 9,95 spoedtoeslag", rush only */
  surcharge?: string;
  /** "Woensdag 22 – vrijdag 24 april" */
  sent: string;
  delivered: string;
  dates: { sent: DayWindow; delivered: DayWindow };
}

export interface DeliveryRow {
  productId: string;
  name: string;
  href: string;
  options: DeliveryOption[];
}

export interface DeliveryGroup {
  id: string;
  name: string;
  rows: DeliveryRow[];
}

export interface DeliveryOverview {
  locale: Locale;
  /** When this was computed, and when it next changes (the cut-off or midnight). */
  generatedAt: string;
  refreshAt: string;
  /** "Besteld vandaag vóór 15:00 uur" */
  orderBefore: string;
  groups: DeliveryGroup[];
}

/** The expected dispatch of one product or a whole cart, for the product page and the cart overview. */
export interface DispatchEstimate {
  /** "tussen morgen en vrijdag 24 april" (lower case: it goes into a sentence) */
  sent: string;
  delivered: string;
  /** "Bij bestelling vandaag vóór 15:00 uur." */
  orderBefore: string;
  dates: { sent: DayWindow; delivered: DayWindow };
}

/** One line of a cart: the product and whether it is made with rush production. */
export interface DispatchItem {
  product: Product;
  rush?: boolean;
}

export interface DeliveryTimes {
  /** The configured cut-off, "15:00". */
  readonly cutOff: string;
  /** Throws when the times cannot be computed; the page then shows the spec's error text 1. */
  overview(locale: Locale, now: Date): DeliveryOverview;
  /** When this product, made this way, is sent if ordered now; undefined if it has no such production. */
  dispatch(product: Product, kind: ProductionKind, locale: Locale, now: Date): DispatchEstimate | undefined;
  /**
   * When a cart's order is sent and delivered: as one parcel, once its slowest item is
   * made. Undefined for an empty cart.
   */
  forCart(items: readonly DispatchItem[], locale: Locale, now: Date): DispatchEstimate | undefined;
  /**
   * Names the part of the day a moment falls in. Everything above changes only between
   * parts (at the cut-off and at midnight), so a copy kept under this name stays true.
   */
  period(now: Date): string;
}

export interface DeliveryTimesOptions {
  catalogue: Catalogue;
  t: Record<Locale, Translate>;
  cutOff: CutOff;
  productHref: (product: Product, locale: Locale) => string;
  timeZone?: string;
}

function later(a: string, b: string): string {
  return a > b ? a : b;
}

export function deliveryTimes(options: DeliveryTimesOptions): DeliveryTimes {
  const { catalogue, cutOff } = options;
  const settings = { cutOff, timeZone: options.timeZone };
  const time = formatCutOff(cutOff);

  const dayTexts = (locale: Locale): DayTexts => {
    const t = options.t[locale];
    return {
      today: t("deliveryTimes.days.today"),
      tomorrow: t("deliveryTimes.days.tomorrow"),
      on: t("deliveryTimes.days.on"),
      either: t("deliveryTimes.days.either"),
      between: t("deliveryTimes.days.between"),
    };
  };

  const productionOf = (product: Product, kind: ProductionKind) =>
    kind === "rush" ? product.production.rush : product.production.standard;

  const estimateFor = (product: Product, kind: ProductionKind, locale: Locale, now: Date) => {
    const production = productionOf(product, kind);
    return production ? estimate(now, production, countryOf[locale], settings) : undefined;
  };

  function describe(
    locale: Locale,
    today: string,
    orderBefore: string,
    dates: { sent: DayWindow; delivered: DayWindow },
  ): DispatchEstimate {
    const lang = intlLocale[locale];
    const texts = dayTexts(locale);
    return {
      sent: windowText(dates.sent, today, lang, texts),
      delivered: windowText(dates.delivered, today, lang, texts),
      orderBefore: options.t[locale]("deliveryTimes.productOrderBefore", {
        day: dayPhrase(orderBefore, today, lang, texts),
        time,
      }),
      dates,
    };
  }

  /** The part of the overview that changes only at the cut-off and at midnight. */
  function tables(locale: Locale, now: Date): Pick<DeliveryOverview, "orderBefore" | "groups"> {
    const lang = intlLocale[locale];
    const t = options.t[locale];
    const texts = dayTexts(locale);
    let today = "";
    let orderBefore = "";
    const groups = catalogue.categories.map((category) => ({
      id: category.id,
      name: category.name[locale],
      rows: catalogue.productsIn(category.id).map((product) => ({
        productId: product.id,
        name: product.name[locale],
        href: options.productHref(product, locale),
        options: (["standard", "rush"] as const).flatMap((kind): DeliveryOption[] => {
          const production = productionOf(product, kind);
          const e = estimateFor(product, kind, locale, now);
          if (!production || !e) return [];
          today = e.today;
          orderBefore = e.orderBefore;
          const rush = product.production.rush;
          return [
            {
              kind,
              label: t(`deliveryTimes.${kind}`),
              days: workingDaysText(options.t[locale], production),
              ...(kind === "rush" && rush
                ? {
                    surcharge: t("product.rushSurcharge", {
                      price: formatPrice(rush.surchargeCents, locale),
                    }),
                  }
                : {}),
              sent: capitalize(windowText(e.sent, e.today, lang, texts), lang),
              delivered: capitalize(windowText(e.delivered, e.today, lang, texts), lang),
              dates: { sent: e.sent, delivered: e.delivered },
            },
          ];
        }),
      })),
    }));
    if (!today) throw new Error("the catalogue has no products to give delivery times for");
    return {
      orderBefore: t("deliveryTimes.orderBefore", {
        day: dayPhrase(orderBefore, today, lang, texts),
        time,
      }),
      groups: groups.filter((g) => g.rows.length > 0),
    };
  }

  const cutOffMinutes = cutOff.hour * 60 + cutOff.minute;
  const computed = new Map<string, Pick<DeliveryOverview, "orderBefore" | "groups">>();
  // The part last named, with its bounds: working it out takes a time-zone conversion, so
  // once per part rather than once per page.
  let part = { from: Number.POSITIVE_INFINITY, until: Number.NEGATIVE_INFINITY, name: "" };
  const period = (now: Date): string => {
    const at = now.getTime();
    if (at < part.from || at >= part.until) {
      const moment = localMoment(now, settings.timeZone);
      const name = `${moment.date} ${moment.minutes < cutOffMinutes ? "before" : "after"}`;
      part = { from: at, until: nextChange(now, settings).getTime(), name };
    }
    return part.name;
  };

  // A cart's and a product's dates, too, per locale and part of the day: a cold overview
  // page spent a tenth of its CPU working out the same windows and their texts again
  // (docs/performance.md). Shared by every caller, so frozen.
  const estimates = new Map<string, DispatchEstimate | undefined>();
  const oncePerPart = (key: string, now: Date, make: () => DispatchEstimate | undefined) => {
    const named = `${period(now)} ${key}`;
    if (estimates.has(named)) return estimates.get(named);
    const made = make();
    if (made) {
      Object.freeze(made.dates.sent);
      Object.freeze(made.dates.delivered);
      Object.freeze(made.dates);
      Object.freeze(made);
    }
    // The parts of one day name a few hundred carts' product sets at most; a new day starts afresh.
    if (estimates.size >= 1000) estimates.clear();
    estimates.set(named, made);
    return made;
  };

  return {
    cutOff: time,

    overview(locale, now) {
      // Computed once per locale and part of the day; only the timestamps are new on each call.
      const key = `${locale} ${period(now)}`;
      let made = computed.get(key);
      if (!made) {
        made = tables(locale, now);
        if (computed.size >= 8) computed.clear();
        computed.set(key, made);
      }
      return {
        locale,
        generatedAt: now.toISOString(),
        refreshAt: nextChange(now, settings).toISOString(),
        ...made,
      };
    },

    period,

    dispatch(product, kind, locale, now) {
      return oncePerPart(`${locale} ${kind} ${product.id}`, now, () => {
        const e = estimateFor(product, kind, locale, now);
        return e && describe(locale, e.today, e.orderBefore, { sent: e.sent, delivered: e.delivered });
      });
    },

    forCart(items, locale, now) {
      const key = items.map((item) => `${item.product.id}${item.rush ? "+rush" : ""}`).join(" ");
      return oncePerPart(`${locale} cart ${key}`, now, () => combinedFor(items, locale, now));
    },
  };

  /** As one parcel: sent and delivered once its slowest item is made. */
  function combinedFor(
    items: readonly DispatchItem[],
    locale: Locale,
    now: Date,
  ): DispatchEstimate | undefined {
    let combined: ReturnType<typeof estimateFor>;
    for (const item of items) {
      const e =
        estimateFor(item.product, item.rush ? "rush" : "standard", locale, now) ??
        estimateFor(item.product, "standard", locale, now);
      if (!e) continue;
      combined = combined
        ? {
            ...combined,
            sent: { from: later(combined.sent.from, e.sent.from), to: later(combined.sent.to, e.sent.to) },
            delivered: {
              from: later(combined.delivered.from, e.delivered.from),
              to: later(combined.delivered.to, e.delivered.to),
            },
          }
        : e;
    }
    return (
      combined &&
      describe(locale, combined.today, combined.orderBefore, {
        sent: combined.sent,
        delivered: combined.delivered,
      })
    );
  }
}
