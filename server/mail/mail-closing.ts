import type { Translate } from "../i18n/translate.ts";

/** How every order mail ends: where to ask questions, the greeting and the shop's name. */
export function mailClosing(t: Translate): string[] {
  return [
    t("orderMail.questions", {
      email: t("footer.email"),
      phone: t("footer.phone"),
      hours: t("footer.hours"),
    }),
    "",
    t("orderMail.closing"),
    t("site.name"),
    "",
  ];
}
