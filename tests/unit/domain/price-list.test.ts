import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { shippingCosts } from "../../../server/domain/cart-pricing.ts";
import {
  loadPriceList,
  PriceListError,
  parsePriceList,
  priceListPath,
} from "../../../server/domain/price-list.ts";
import { priceList } from "../../../server/domain/prices.ts";
import { recommendedPlanId } from "../../../server/domain/subscription-plans.ts";
import { locales } from "../../../server/i18n/locales.ts";

const raw = () => JSON.parse(readFileSync(priceListPath, "utf8"));

describe("the editors' price list (content/prices.json)", () => {
  it("is what the cart charges for shipping and what the subscription page offers", () => {
    expect(shippingCosts).toEqual(raw().shipping);
    expect(priceList.subscriptionPlans.map((p) => p.id)).toEqual(
      raw().subscriptionPlans.map((p: { id: string }) => p.id),
    );
    expect(recommendedPlanId).toBe(
      raw().subscriptionPlans.find((p: { recommended?: boolean }) => p.recommended).id,
    );
  });

  it("has a name and a summary for every plan in every language", () => {
    for (const locale of locales) {
      const words = JSON.parse(readFileSync(`${paths.locales}/${locale}.json`, "utf8")).subscription.plans;
      for (const plan of priceList.subscriptionPlans) {
        expect(words[plan.id]?.name, `${locale}: subscription.plans.${plan.id}.name`).toBeTruthy();
        expect(words[plan.id]?.summary, `${locale}: subscription.plans.${plan.id}.summary`).toBeTruthy();
      }
    }
  });
});

describe("a mistake in the price list", () => {
  it("names the plan and field of a price in euros instead of cents", () => {
    const data = raw();
    data.subscriptionPlans[1].monthlyCents = 5.99;
    expect(() => parsePriceList(data, "prices.json")).toThrow(
      new RegExp(
        `prices.json: subscriptionPlans\\[1\\] "${data.subscriptionPlans[1].id}" > monthlyCents: must be a whole number of cents`,
      ),
    );
  });

  it("names a delivery country without shipping costs", () => {
    const data = raw();
    delete data.shipping.DE;
    expect(() => parsePriceList(data)).toThrow(/shipping > DE/);
  });

  it("refuses an offer that is not cheaper than the plan", () => {
    const data = raw();
    const plan = data.subscriptionPlans.find((p: { offer?: unknown }) => p.offer);
    plan.offer.monthlyCents = plan.monthlyCents;
    expect(() => parsePriceList(data)).toThrow(/offer > monthlyCents: an offer must be cheaper/);
  });

  it("refuses two recommended plans, or none", () => {
    const data = raw();
    for (const plan of data.subscriptionPlans) plan.recommended = true;
    expect(() => parsePriceList(data)).toThrow(/exactly one plan must be recommended/);
    for (const plan of data.subscriptionPlans) plan.recommended = false;
    expect(() => parsePriceList(data)).toThrow(PriceListError);
  });

  it("refuses the same plan twice", () => {
    const data = raw();
    data.subscriptionPlans.push({ ...data.subscriptionPlans[0], recommended: false });
    expect(() => parsePriceList(data)).toThrow(/two plans have the same id/);
  });

  it("explains a file that cannot be read", () => {
    expect(() => loadPriceList(`${priceListPath}.missing`)).toThrow(/cannot be read as JSON \(ENOENT\)/);
  });
});
