import { describe, expect, it, vi } from "vitest";
import { createTranslate, leafKeys, missingText } from "../../../server/i18n/translate.ts";

const messages = {
  cart: {
    items: { one: "{count} artikel", other: "{count} artikelen" },
    greeting: "Hallo {name}",
  },
  plain: "Tekst",
};

describe("t()", () => {
  it("returns a text by its dotted key", () => {
    expect(createTranslate("nl", messages)("plain")).toBe("Tekst");
  });

  it("fills in named parameters and leaves unknown ones visible", () => {
    const t = createTranslate("nl", messages);
    expect(t("cart.greeting", { name: "Anna" })).toBe("Hallo Anna");
    expect(t("cart.greeting")).toBe("Hallo {name}");
  });

  it("chooses the plural form through Intl.PluralRules", () => {
    const t = createTranslate("nl", messages);
    expect(t("cart.items", { count: 1 })).toBe("1 artikel");
    expect(t("cart.items", { count: 0 })).toBe("0 artikelen");
    expect(t("cart.items", { count: 7 })).toBe("7 artikelen");
  });

  it("when a key is missing, shows the agreed marker and reports the key", () => {
    const onMissing = vi.fn();
    const t = createTranslate("de", messages, onMissing);
    expect(t("cart.nothing")).toBe("TRANSLATION MISSING FOR: cart.nothing");
    expect(onMissing).toHaveBeenCalledWith("cart.nothing", "de");
  });

  it("treats a group or a plural text used without a count as missing rather than printing an object", () => {
    const t = createTranslate("nl", messages);
    expect(t("cart")).toBe(missingText("cart"));
    expect(t("cart.items")).toBe(missingText("cart.items"));
    expect(t("plain.deeper")).toBe(missingText("plain.deeper"));
  });
});

describe("leafKeys", () => {
  it("lists every text once, counting plural forms as one text", () => {
    expect(leafKeys(messages).sort()).toEqual(["cart.greeting", "cart.items", "plain"]);
  });
});
