import type { Config } from "../config.ts";
import type { Catalogue } from "../domain/catalogue.ts";
import type { I18n } from "../i18n/index.ts";
import type { CartRepository } from "../store/cart-repository.ts";
import type { Database } from "../store/database.ts";

/** What route modules get to work with; built once at start-up. */
export interface Services {
  config: Config;
  catalogue: Catalogue;
  database: Database;
  i18n: I18n;
  carts: CartRepository;
  asset: (name: string) => string;
}
