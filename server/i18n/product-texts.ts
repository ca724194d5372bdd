import type { Translate } from "./translate.ts";

/** "3 tot 5 werkdagen", "1 werkdag": a production time as the product page and the checkout say it. */
export function workingDaysText(t: Translate, days: { min: number; max: number }): string {
  return days.min === days.max
    ? t("product.workingDaysExact", { count: days.min })
    : t("product.workingDays", { count: days.max, min: days.min, max: days.max });
}

/** "Staand, 21x30 cm": a product option in the shopper's words, wherever one is named. */
export function choiceText(t: Translate, option: { orientation: string; sizeId: string }): string {
  return t("product.choice", {
    orientation: t(`orientation.${option.orientation}`),
    size: t("product.size", { size: option.sizeId }),
  });
}
