import { Eta } from "eta";
import { describe, expect, it } from "vitest";
import { paths } from "../../server/app.ts";
import { customerServiceContact, loadCompany } from "../../server/domain/company.ts";
import { createI18n, loadMessages } from "../../server/i18n/index.ts";
import type { Locale } from "../../server/i18n/locales.ts";

const i18n = createI18n(loadMessages(paths.locales), () => {});
const eta = new Eta({ views: paths.views, autoEscape: true });

/** The partial as a page renders it, with the customer-service screen live or not. */
function render(locale: Locale, live: boolean): string {
  return eta.render("partials/customer-service-contact", {
    t: i18n.t[locale],
    live: (id: string) => live && id === "customerService",
    href: (id: string) => i18n.routes.pathForUntyped(id, locale),
    customerService: customerServiceContact(loadCompany(), locale),
  });
}

describe("how a failure page points to customer service", () => {
  it("links to the customer-service page where that screen is live, and still gives the direct ways", () => {
    const nl = render("nl", true);
    expect(nl).toContain('<a href="/klantenservice">Naar de klantenservice</a>');
    // The page may be down with the rest of the shop; mail and phone are not.
    expect(nl).toContain('<a href="mailto:klantenservice@fotohoek.nl">');
    expect(render("de", true)).toContain('<a href="/kundenservice">Zum Kundenservice</a>');
  });

  it("without that screen, gives the e-mail address and phone number from content/company.json", () => {
    const nl = render("nl", false);
    expect(nl).toContain('<a href="mailto:klantenservice@fotohoek.nl">klantenservice@fotohoek.nl</a>');
    expect(nl).toContain('<a href="tel:+31851234567">+31 85 123 45 67</a>');
    const de = render("de", false);
    expect(de).toContain('<a href="mailto:kundenservice@fotohoek.de">');
    expect(de).not.toContain("/kundenservice");
  });
});
