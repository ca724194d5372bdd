import { loadPriceList, type PriceList, priceListPath } from "./price-list.ts";

/**
 * The shop's prices besides the catalogue's, read once when the first module that prices
 * anything is loaded. server/main.ts checks the file before that, so a mistake in it ends
 * the start with one readable line.
 */
export const priceList: PriceList = loadPriceList(priceListPath);
