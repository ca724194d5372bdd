// @vitest-environment happy-dom
import { screen, waitFor } from "@testing-library/dom";
import { Eta } from "eta";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import * as faqIsland from "../../islands/faq/faq.ts";
import { mount } from "../../islands/faq/faq.ts";
import { flushPageState } from "../../islands/runtime/history-state.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { paths } from "../../server/app.ts";
import { projectRoot } from "../../server/config.ts";
import { loadFaq } from "../../server/domain/faq.ts";
import type { Services } from "../../server/http/services.ts";
import { createI18n, loadMessages } from "../../server/i18n/index.ts";
import { type FaqPlace, faqNavigation } from "../../server/routes/faq.ts";
import { closeExamples, renderExample } from "../support/examples.ts";

const eta = new Eta({ views: paths.views, autoEscape: true });
const services = {
  faq: loadFaq(`${projectRoot}/content/faq`),
  i18n: createI18n(loadMessages(paths.locales), () => {}),
} as unknown as Services;

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  flushPageState();
  window.history.replaceState(null, "");
  document.body.innerHTML = "";
});

/** The real partial, as the server renders it on a FAQ page, with the island mounted on it. */
function render(locale: "nl" | "de", current?: FaqPlace): HTMLElement {
  document.documentElement.lang = locale;
  document.body.innerHTML = eta.render("/partials/faq", {
    faq: { nav: faqNavigation(services, locale, current) },
  });
  const root = document.querySelector<HTMLElement>('[data-island="faq"]');
  if (!root) throw new Error("the partial rendered no faq island");
  unmount = mount(root);
  return root;
}

const summary = (title: string) => screen.getByText(title).closest("summary") as HTMLElement;
const item = (title: string) => summary(title).parentElement as HTMLDetailsElement;

describe("the FAQ list, with JavaScript", () => {
  it("says which topic is open with aria-expanded, the current page's topic first of all", () => {
    render("nl", { topicId: "delivery", questionId: "holidays" });
    expect(summary("Levering").getAttribute("aria-expanded")).toBe("true");
    expect(summary("Bestellen").getAttribute("aria-expanded")).toBe("false");
    expect(
      screen.getByRole("link", { name: "Leveren jullie ook op feestdagen?" }).getAttribute("aria-current"),
    ).toBe("page");
  });

  it("collapses the other topics when the shopper opens one", async () => {
    render("nl", { topicId: "delivery" });
    summary("Betalen").click();
    await waitFor(() => expect(item("Betalen").open).toBe(true));
    await waitFor(() => expect(item("Levering").open).toBe(false));
    expect(summary("Levering").getAttribute("aria-expanded")).toBe("false");
    expect(summary("Betalen").getAttribute("aria-expanded")).toBe("true");
    expect(document.querySelectorAll("details[open]")).toHaveLength(1);
  });

  it("keeps track when a topic is closed again, and then no topic is open", async () => {
    render("de", { topicId: "payment" });
    summary("Bezahlung").click();
    await waitFor(() => expect(summary("Bezahlung").getAttribute("aria-expanded")).toBe("false"));
    expect(document.querySelectorAll("details[open]")).toHaveLength(0);
  });

  it("collapses only first-level siblings, never the item a nested one sits in", async () => {
    const root = render("nl");
    // An editor may nest a second level inside a topic's list.
    const list = item("Bestellen").querySelector("ul") as HTMLElement;
    list.innerHTML =
      "<li><details><summary>Eerste</summary><p>a</p></details></li>" +
      "<li><details open><summary>Tweede</summary><p>b</p></details></li>";
    unmount?.();
    unmount = mount(root);
    summary("Bestellen").click();
    await waitFor(() => expect(item("Bestellen").open).toBe(true));
    summary("Eerste").click();
    await waitFor(() => expect(item("Eerste").open).toBe(true));
    await waitFor(() => expect(item("Tweede").open).toBe(false));
    expect(item("Bestellen").open).toBe(true);
    expect(summary("Tweede").getAttribute("aria-expanded")).toBe("false");
  });

  it("leaves the native list as it was when it is taken away", () => {
    render("nl", { topicId: "delivery" });
    unmount?.();
    unmount = undefined;
    expect(document.querySelector("summary[aria-expanded]")).toBeNull();
    expect(item("Levering").open).toBe(true);
  });
});

describe("the FAQ list after Back or Forward", () => {
  const position = (title: string) => [...document.querySelectorAll("details")].indexOf(item(title));

  it("keeps which topics are open in the history entry", async () => {
    render("nl", { topicId: "delivery" });
    summary("Betalen").click();
    await waitFor(() => expect(item("Levering").open).toBe(false));
    flushPageState();
    expect(window.history.state).toEqual({ fotohoek: { "faq#faq-nav": [position("Betalen")] } });
  });

  it("opens the topics the history entry kept rather than the ones the page starts with", async () => {
    document.body.innerHTML = eta.render("/partials/faq", {
      faq: { nav: faqNavigation(services, "nl", { topicId: "delivery" }) },
    });
    const payment = position("Betalen");
    document.body.innerHTML = "";
    window.history.replaceState({ fotohoek: { "faq#faq-nav": [payment] } }, "");
    render("nl", { topicId: "delivery" });
    expect(item("Betalen").open).toBe(true);
    expect(item("Levering").open).toBe(false);
    expect(summary("Betalen").getAttribute("aria-expanded")).toBe("true");
    expect(summary("Levering").getAttribute("aria-expanded")).toBe("false");
    // The toggles that restoring caused keep the same state, and close nothing else.
    await waitFor(() => expect(document.querySelectorAll("details[open]")).toHaveLength(1));
    flushPageState();
    expect(window.history.state).toEqual({ fotohoek: { "faq#faq-nav": [payment] } });
  });

  it("keeps that no topic is open, when the shopper closed them all", async () => {
    window.history.replaceState({ fotohoek: { "faq#faq-nav": [] } }, "");
    render("de", { topicId: "payment" });
    expect(document.querySelectorAll("details[open]")).toHaveLength(0);
    expect(summary("Bezahlung").getAttribute("aria-expanded")).toBe("false");
  });
});

describe("a FAQ list whose markup breaks its contract", () => {
  afterAll(closeExamples);

  it("without topics to fold is marked failed and reported once, naming the hook", async () => {
    const [root] = await renderExample("faq", "default");
    if (!root) throw new Error("the example rendered no faq island");
    for (const details of root.querySelectorAll("details")) details.remove();
    const report = vi.fn();
    const hook = { kind: "island", name: "faq", react: false, load: async () => faqIsland } as const;
    await createRuntime([hook], document, report).scan(document);
    expect(root.dataset.islandState).toBe("failed");
    expect(report).toHaveBeenCalledTimes(1);
    expect(String(report.mock.calls[0]?.[0])).toMatch(/"faq".*summary/);
  });
});
