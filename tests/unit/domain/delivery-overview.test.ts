import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { projectRoot } from "../../../server/config.ts";
import { loadCatalogue } from "../../../server/domain/catalogue.ts";
import { deliveryTimes } from "../../../server/domain/delivery-overview.ts";
import { parseCutOff } from "../../../server/domain/delivery-times.ts";
import { createI18n, loadMessages } from "../../../server/i18n/index.ts";

const catalogue = loadCatalogue(`${projectRoot}/content/catalogue.json`);
const i18n = createI18n(loadMessages(paths.locales), () => {});
const times = deliveryTimes({
  catalogue,
  t: i18n.t,
  cutOff: parseCutOff("15:00"),
  productHref: (product, locale) => `/${locale}/${product.id}`,
});
const product = (id: string) => {
  const found = catalogue.product(id);
  if (!found) throw new Error(`no product ${id}`);
  return found;
};
const monday = new Date("2026-04-20T08:00:00Z"); // 10:00 in Amsterdam

describe("the delivery-times overview", () => {
  it("has every product of the catalogue under its category, rush only where it is offered", () => {
    const overview = times.overview("nl", monday);
    expect(overview.groups.map((g) => g.id)).toEqual(catalogue.categories.map((c) => c.id));
    expect(overview.groups.flatMap((g) => g.rows).length).toBe(catalogue.products.length);
    const square = overview.groups[0]?.rows.find((r) => r.productId === "square-photobook");
    expect(square?.options.map((o) => o.kind)).toEqual(["standard"]);
    expect(square?.href).toBe("/nl/square-photobook");
  });

  it("throws rather than show times it cannot compute", () => {
    expect(() => times.overview("nl", new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe("the part of the day the times hold for", () => {
  it("stays the same until the cut-off minute and until midnight, in Amsterdam time", () => {
    const at = (iso: string) => times.period(new Date(iso));
    // Summer time: 15:00 in Amsterdam is 13:00 UTC, midnight is 22:00 UTC.
    expect(at("2026-04-20T06:00:00Z")).toBe(at("2026-04-20T12:59:59Z"));
    expect(at("2026-04-20T13:00:00Z")).not.toBe(at("2026-04-20T12:59:59Z"));
    expect(at("2026-04-20T13:00:00Z")).toBe(at("2026-04-20T21:59:59Z"));
    expect(at("2026-04-20T22:00:00Z")).not.toBe(at("2026-04-20T21:59:59Z"));
    // Asked out of order (another request's clock), it still names the right part.
    expect(at("2026-04-20T12:00:00Z")).toBe(at("2026-04-20T06:00:00Z"));
  });
});

describe("the expected dispatch of a product and of a cart", () => {
  it("for one product: when it is sent, and until when the order must be placed", () => {
    const sent = times.dispatch(product("exclusive-photobook"), "rush", "nl", monday);
    expect(sent?.sent).toBe("tussen morgen en donderdag 23 april");
    expect(sent?.orderBefore).toBe("Bij bestelling vandaag vóór 15:00 uur.");
    expect(times.dispatch(product("square-photobook"), "rush", "nl", monday)).toBeUndefined();
  });

  it("for a cart: one parcel, sent when its slowest item is made", () => {
    const cart = times.forCart(
      [{ product: product("classic-prints") }, { product: product("exclusive-photobook"), rush: true }],
      "de",
      monday,
    );
    expect(cart?.dates.sent).toEqual({ from: "2026-04-21", to: "2026-04-23" });
    expect(cart?.sent).toBe("zwischen morgen und Donnerstag, 23. April");
    expect(cart?.delivered).toBe("Mittwoch, 22.\u2009–\u2009Montag, 27. April");
    expect(cart?.orderBefore).toBe("Bei Bestellung heute vor 15:00 Uhr.");
  });

  it("for a cart: rush asked for a product without rush counts as standard; an empty cart has none", () => {
    const cart = times.forCart([{ product: product("poster"), rush: true }], "nl", monday);
    expect(cart?.dates.sent).toEqual({ from: "2026-04-21", to: "2026-04-22" });
    expect(times.forCart([], "nl", monday)).toBeUndefined();
  });

  it("are worked out once per part of the day, and anew past the cut-off and per language and cart", () => {
    const items = [{ product: product("classic-prints") }, { product: product("exclusive-photobook") }];
    const morning = times.forCart(items, "nl", monday);
    // Later the same morning: the same dates, worked out once (one shared, frozen answer).
    expect(times.forCart(items, "nl", new Date("2026-04-20T12:59:00Z"))).toBe(morning);
    expect(Object.isFrozen(morning?.dates.sent)).toBe(true);
    // 15:00 in Amsterdam: past the cut-off, it goes a working day later.
    const afternoon = times.forCart(items, "nl", new Date("2026-04-20T13:00:00Z"));
    expect(afternoon?.orderBefore).toBe("Bij bestelling morgen vóór 15:00 uur.");
    expect((afternoon?.dates.sent.from ?? "") > (morning?.dates.sent.from ?? "")).toBe(true);
    expect(times.forCart(items, "de", monday)?.orderBefore).toBe("Bei Bestellung heute vor 15:00 Uhr.");
    expect(times.forCart(items.slice(0, 1), "nl", monday)?.dates).not.toEqual(morning?.dates);
    const rush = times.dispatch(product("exclusive-photobook"), "rush", "nl", monday);
    expect(times.dispatch(product("exclusive-photobook"), "standard", "nl", monday)?.dates).not.toEqual(
      rush?.dates,
    );
  });
});
