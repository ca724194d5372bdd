import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { loadCompany } from "../../server/domain/company.ts";
import type { LegalPages } from "../../server/domain/legal-pages.ts";
import { shopLegalPages } from "../../server/domain/shop-legal-pages.ts";
import type { I18n } from "../../server/i18n/index.ts";
import { testConfig } from "./app.ts";

/** The shop's legal pages as the app builds them, for tests that compose mails without an app. */
export function testLegalPages(i18n: I18n): LegalPages {
  const config = testConfig();
  return shopLegalPages({
    company: loadCompany(),
    catalogue: loadCatalogue(config.cataloguePath),
    config,
    i18n,
  });
}
