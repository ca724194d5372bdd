import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import type { Catalogue, Product } from "./catalogue.ts";

/**
 * Which products a consumer may return within 14 days without giving a reason. Goods made to
 * the consumer's specifications have no such right (§ 312g (2) 1 BGB, art. 6:230p sub f BW),
 * and every product made from the shopper's own photos is one; content/legal/withdrawal.json
 * lists the few that are not, by catalogue id (none in this catalogue). The checkout, the
 * product page and the withdrawal flow read it, so they always say the same.
 */

const schema = z.object({ withdrawable: z.array(z.string().min(1)) }).strict();

export interface WithdrawalRights {
  /** The products with a 14-day right of withdrawal. */
  readonly withdrawable: readonly Product[];
  has(productId: string): boolean;
}

export function parseWithdrawalRights(json: unknown, catalogue: Catalogue): WithdrawalRights {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`content/legal/withdrawal.json: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  const products = parsed.data.withdrawable.map((id) => {
    const product = catalogue.products.find((p) => p.id === id);
    if (!product) throw new Error(`content/legal/withdrawal.json: "${id}" is no product of the catalogue`);
    return product;
  });
  const ids = new Set(products.map((p) => p.id));
  return { withdrawable: products, has: (id) => ids.has(id) };
}

export function loadWithdrawalRights(
  catalogue: Catalogue,
  // The URL's path, not a URL: island tests load this under happy-dom, whose URL is not Node's.
  path: string = resolve(dirname(new URL(import.meta.url).pathname), "../../content/legal/withdrawal.json"),
): WithdrawalRights {
  return parseWithdrawalRights(JSON.parse(readFileSync(path, "utf8")), catalogue);
}
