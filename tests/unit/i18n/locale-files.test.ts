import { describe, expect, it } from "vitest";
import { paths } from "../../../server/app.ts";
import { loadMessages } from "../../../server/i18n/index.ts";
import { leafKeys, type Messages } from "../../../server/i18n/translate.ts";

const messages = loadMessages(paths.locales);

function leaves(node: Messages, prefix = ""): Array<[string, string]> {
  return Object.entries(node).flatMap(([k, v]) =>
    typeof v === "string" ? [[`${prefix}${k}`, v] as [string, string]] : leaves(v, `${prefix}${k}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the locale files", () => {
  it("hold the same keys in nl and de", () => {
    expect(leafKeys(messages.de).sort()).toEqual(leafKeys(messages.nl).sort());
  });

  it("have no empty texts", () => {
    for (const locale of ["nl", "de"] as const) {
      const empty = leaves(messages[locale]).filter(([, text]) => text.trim() === "");
      expect(empty, `${locale}: empty texts`).toEqual([]);
    }
  });

  it("use the same placeholders for the same text in both languages", () => {
    const de = new Map(leaves(messages.de));
    for (const [key, text] of leaves(messages.nl)) {
      expect(placeholders(de.get(key) ?? ""), key).toEqual(placeholders(text));
    }
  });

  it("keep the spec's cart paths under the api group", () => {
    expect(messages.nl.api).toEqual({
      cartOverview: "/winkelwagen/overzicht",
      cartAddress: "/winkelwagen/adres",
      cartContents: "/winkelwagen/inhoud",
    });
    expect(messages.de.api).toEqual({
      cartOverview: "/einkaufswagen/uebersicht",
      cartAddress: "/einkaufswagen/adresse",
      cartContents: "/einkaufswagen/inhalt",
    });
  });

  it("carry the spec's free-shipping labels", () => {
    expect((messages.nl.product as Messages).freeShipping).toBe("+ Gratis verzending");
    expect((messages.de.product as Messages).freeShipping).toBe("+ Kostenloser Versand");
  });
});
