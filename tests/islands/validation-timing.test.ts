// @vitest-environment happy-dom
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { start } from "../../islands/validation/validation.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

/**
 * When the validation behaviour judges a field, on the pattern library's rule examples as
 * the server renders them: jQuery Validation's lazy timing (leaving a filled-in field, then
 * typing in a field that shows an error), before any submit.
 */

beforeAll(() => start(document));
afterAll(closeExamples);

async function showRules(locale: "nl" | "de"): Promise<void> {
  document.documentElement.lang = locale;
  document.body.innerHTML = await exampleHtml("validation", "rules", locale);
}

const field = (name: string) => document.getElementById(`rules-${name}`) as HTMLInputElement;
const message = (name: string) => document.getElementById(`rules-${name}-error`)?.textContent ?? "";

function type(name: string, value: string): void {
  field(name).value = value;
  field(name).dispatchEvent(new Event("input", { bubbles: true }));
}

function leave(name: string): void {
  field(name).dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
}

describe("the validation behaviour before the first submit", () => {
  it("judges a filled-in field when the shopper leaves it, not while they type", async () => {
    await showRules("nl");
    type("url", "www.example.nl");
    expect(field("url").hasAttribute("aria-invalid")).toBe(false);
    leave("url");
    await vi.waitFor(() => expect(message("url")).toBe("Fout: Vul hier een geldige URL in."));
    expect(field("url").getAttribute("aria-invalid")).toBe("true");
    expect(field("url").getAttribute("aria-describedby")).toContain("rules-url-error");
  });

  it("then re-judges that field as the shopper corrects it", async () => {
    await showRules("nl");
    type("url", "www.example.nl");
    leave("url");
    await vi.waitFor(() => expect(field("url").getAttribute("aria-invalid")).toBe("true"));
    type("url", "https://www.example.nl");
    await vi.waitFor(() => expect(field("url").getAttribute("aria-invalid")).toBe("false"));
    expect(message("url")).toBe("");
  });

  it("leaves an empty field the shopper only passed through alone", async () => {
    await showRules("nl");
    field("required").focus();
    leave("required");
    type("regex", "");
    leave("regex");
    // A filled-in field left after them is judged: once its verdict shows, theirs would have too.
    type("email", "anna@");
    leave("email");
    await vi.waitFor(() => expect(message("email")).toContain("Vul hier een geldig e-mailadres in."));
    expect(field("required").hasAttribute("aria-invalid")).toBe(false);
    expect(field("regex").hasAttribute("aria-invalid")).toBe(false);
    expect(message("required")).toBe("");
  });

  it("judges a confirmation again when the field it repeats changes", async () => {
    await showRules("de");
    type("original", "Sommer");
    leave("original");
    type("repeat", "Somer");
    leave("repeat");
    await vi.waitFor(() => expect(message("repeat")).toBe("Fehler: Wiederholen Sie bitte denselben Wert."));
    type("original", "Somer");
    leave("original");
    await vi.waitFor(() => expect(field("repeat").getAttribute("aria-invalid")).toBe("false"));
  });

  it("reads dates and numbers as the page's language writes them", async () => {
    await showRules("de");
    type("date", "28-02-2026");
    leave("date");
    type("number", "1,234.5");
    leave("number");
    await vi.waitFor(() => expect(message("number")).toBe("Fehler: Geben Sie bitte eine gültige Zahl ein."));
    expect(message("date")).toBe("Fehler: Geben Sie bitte ein gültiges Datum ein.");
    type("date", "28.02.2026");
    type("number", "1.234,5");
    await vi.waitFor(() => expect(field("number").getAttribute("aria-invalid")).toBe("false"));
    expect(field("date").getAttribute("aria-invalid")).toBe("false");
  });
});
