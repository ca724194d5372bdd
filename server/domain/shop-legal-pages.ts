import { dirname, resolve } from "node:path";
import type { Config } from "../config.ts";
import { cartLifetimeSeconds } from "../http/cookies/cart-cookie.ts";
import type { I18n } from "../i18n/index.ts";
import { isRouteId } from "../i18n/routes.ts";
import { signupLinkHours } from "../store/signup-repository.ts";
import type { Catalogue } from "./catalogue.ts";
import type { Company } from "./company.ts";
import { legalFacts } from "./legal-facts.ts";
import { buildLegalPages, type LegalPages, legalPageFolder } from "./legal-pages.ts";

/** The folder editors keep the legal pages in. The URL's path, not a URL: island tests load
 * this under happy-dom, whose URL is not Node's. */
export const legalPagesDir = resolve(dirname(new URL(import.meta.url).pathname), "../../content/legal");

/**
 * The shop's legal pages: content/legal/ with the shop's own facts for its placeholders and
 * its route table for `route:` links. Built once by the app; the tests build the same.
 */
export function shopLegalPages(input: {
  company: Company;
  catalogue: Catalogue;
  config: Pick<Config, "retention" | "sessions" | "orderCutOff">;
  i18n: I18n;
}): LegalPages {
  const { i18n } = input;
  return buildLegalPages(legalPageFolder(legalPagesDir), {
    values: legalFacts({
      company: input.company,
      catalogue: input.catalogue,
      config: input.config,
      t: i18n.t,
      cartDays: cartLifetimeSeconds / 86_400,
      signupLinkHours,
    }),
    // Only screens without parameters: a legal text links to pages, not to one product.
    routePath: (id, locale) => {
      if (!isRouteId(id)) return undefined;
      try {
        return i18n.routes.pathForUntyped(id, locale);
      } catch {
        return undefined;
      }
    },
  });
}
