// @vitest-environment happy-dom
import { act, screen } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { mount } from "../../islands/delivery-times/delivery-times.tsx";
import { msUntilRefetch, msUntilStale } from "../../islands/delivery-times/refresh.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { paths } from "../../server/app.ts";
import { projectRoot } from "../../server/config.ts";
import { loadCatalogue } from "../../server/domain/catalogue.ts";
import { deliveryTimes } from "../../server/domain/delivery-overview.ts";
import { parseCutOff } from "../../server/domain/delivery-times.ts";
import { createI18n, loadMessages } from "../../server/i18n/index.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

const i18n = createI18n(loadMessages(paths.locales), () => {});
/** The server's overviews, as the JSON endpoint answers the island's requests. */
const times = deliveryTimes({
  catalogue: loadCatalogue(`${projectRoot}/content/catalogue.json`),
  t: i18n.t,
  cutOff: parseCutOff("15:00"),
  productHref: (product, locale) => `/${locale}/${product.id}`,
});

const beforeCutOff = new Date("2026-04-20T12:59:00Z"); // Monday 14:59 in Amsterdam
const afterCutOff = new Date("2026-04-20T13:00:01Z");

type Example = "default" | "unavailable";
const examples = new Map<string, string>();

// The pattern library draws the times of the moment it renders: a minute before the cut-off.
beforeAll(async () => {
  vi.useFakeTimers({ now: beforeCutOff, toFake: ["Date"] });
  try {
    for (const [name, locale] of [
      ["default", "nl"],
      ["unavailable", "nl"],
      ["default", "de"],
    ] as const)
      examples.set(`${name}:${locale}`, await exampleHtml("delivery-times", name, locale));
  } finally {
    vi.useRealTimers();
  }
});
afterAll(closeExamples);

/** The pattern library's overview (or its "not available" example), with the island mounted on it. */
function render(example: Example = "default", locale: "nl" | "de" = "nl") {
  document.documentElement.lang = locale;
  document.body.innerHTML = examples.get(`${example}:${locale}`) ?? "";
  const root = document.querySelector<HTMLElement>('[data-island="delivery-times"]');
  if (!root) throw new Error("the example has no delivery-times island");
  const server = markup(root);
  const { endpoint } = JSON.parse(root.querySelector("script[data-props]")?.textContent ?? "{}");
  act(() => {
    unmount = mount(root);
  });
  return { root, server, endpoint: endpoint as string };
}

/** Elements, classes and texts of what the shopper sees: equal for the server's markup and the island's. */
function markup(root: HTMLElement): string[] {
  return [...root.querySelectorAll("*:not(script)")].map((el) => {
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent ?? "");
    const text = own
      .join("")
      .replace(/[ \n]+/g, " ")
      .trim();
    const attrs = ["class", "scope", "colspan", "href", "role", "aria-live", "aria-labelledby", "id"]
      .map((name) => el.getAttribute(name))
      .join("|");
    return `${el.tagName.toLowerCase()} ${attrs} ${text}`;
  });
}

/** A server answering the island's requests as the test says. */
function server(answer: () => Response | Promise<Response>) {
  const fetchSpy = vi.fn(async (_url: string) => answer());
  vi.stubGlobal("fetch", fetchSpy);
  return fetchSpy;
}
const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const orderBefore = () => document.querySelector(".delivery-times__order-before")?.textContent;

let unmount: (() => void) | undefined;
beforeEach(() => {
  vi.useFakeTimers({ now: beforeCutOff });
});
afterEach(() => {
  act(() => unmount?.());
  unmount = undefined;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

describe("the delivery-times island", () => {
  it("takes over the server's table as it is, without asking the server again", async () => {
    const fetchSpy = server(() => json(times.overview("nl", new Date())));
    const { root, server: before } = render();
    expect(markup(root)).toEqual(before);
    expect(screen.getAllByRole("table")).toHaveLength(3);
    expect(orderBefore()).toBe("Besteld vandaag vóór 15:00 uur");
    await wait(30_000);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("fetches the times again once the cut-off passes while the page is open", async () => {
    const fetchSpy = server(() => json(times.overview("nl", new Date())));
    const { endpoint } = render();
    await wait(59_000);
    expect(fetchSpy).not.toHaveBeenCalled();
    await wait(2_000);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(fetchSpy.mock.calls[0]?.[0]).toBe(endpoint);
    await wait(100);
    expect(orderBefore()).toBe("Besteld morgen vóór 15:00 uur");
    const book = screen.getByRole("link", { name: "Exclusief fotoboek" }).closest("tbody");
    expect(book?.textContent).toContain("Donderdag 23\u2009–\u2009dinsdag 28 april");
  });

  it("shows the spec's text 1 with a link to customer service when the times cannot be fetched", async () => {
    server(() => json({ error: "niet beschikbaar" }, 503));
    render();
    await wait(61_000);
    // react-query tries three times in all before it gives up.
    await wait(10_000);
    expect(screen.queryByRole("table")).toBeNull();
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain(
      "Het overzicht van de levertijden kan nu niet worden getoond. Probeer het later opnieuw of neem contact op met de klantenservice.",
    );
    expect(screen.getByRole("link", { name: "Naar de klantenservice" }).getAttribute("href")).toBe(
      "/klantenservice",
    );
  });

  it("treats a network failure and an answer without times the same way, in German too", async () => {
    let calls = 0;
    server(() => {
      calls++;
      return calls === 1 ? Promise.reject(new TypeError("Failed to fetch")) : json({ groups: [] });
    });
    render("default", "de");
    await wait(71_000);
    expect(screen.queryByRole("table")).toBeNull();
    expect(screen.getByRole("alert").textContent).toContain(
      "Die Übersicht der Lieferzeiten kann gerade nicht angezeigt werden.",
    );
    expect(screen.getByRole("link", { name: "Zum Kundenservice" }).getAttribute("href")).toBe(
      "/kundenservice",
    );
  });

  it("shows the times again when the server can give them after a failure", async () => {
    let down = true;
    server(() => (down ? json({}, 503) : json(times.overview("nl", new Date()))));
    render("unavailable");
    expect(screen.getByRole("alert")).toBeTruthy();
    await wait(10_000);
    expect(screen.queryByRole("table")).toBeNull();
    down = false;
    await wait(61_000);
    expect(screen.getAllByRole("table")).toHaveLength(3);
    expect(orderBefore()).toBe("Besteld morgen vóór 15:00 uur");
  });
});

describe("when the island asks again", () => {
  const overview = times.overview("nl", beforeCutOff);
  const received = Date.parse("2026-04-20T12:59:30Z");

  it("counts the time the answer holds from when it arrived, not by the browser's clock time", () => {
    // The answer holds for one minute (14:59 until 15:00), received 30 s after it was made.
    expect(msUntilStale(overview, received, received)).toBe(60_000);
    expect(msUntilStale(overview, received, received + 45_000)).toBe(15_000);
    expect(msUntilStale(overview, received, received + 90_000)).toBe(0);
  });

  it("waits a second beyond the change, and a minute after a failure", () => {
    expect(msUntilRefetch(overview, received, received, false)).toBe(61_000);
    expect(msUntilRefetch(overview, received, received + 120_000, false)).toBe(1_000);
    expect(msUntilRefetch(overview, received, received, true)).toBe(60_000);
  });

  it("the overview after the cut-off holds until midnight", () => {
    const later = times.overview("nl", afterCutOff);
    expect(msUntilStale(later, afterCutOff.getTime(), afterCutOff.getTime())).toBe(
      Date.parse("2026-04-20T22:00:00Z") - afterCutOff.getTime(),
    );
  });
});

describe("an overview whose props lack a text", () => {
  it("keeps the server's table, marked failed, and is reported once by name and prop", async () => {
    vi.useRealTimers();
    document.body.innerHTML = examples.get("default:nl") ?? "";
    const script = document.querySelector(
      '[data-island="delivery-times"] > script[data-props]',
    ) as HTMLScriptElement;
    const props = JSON.parse(script.textContent ?? "{}");
    delete props.texts.unavailable;
    script.textContent = JSON.stringify(props);
    const report = vi.fn();
    const hook = {
      kind: "island",
      name: "delivery-times",
      react: true,
      load: () => import("../../islands/delivery-times/delivery-times.tsx"),
    } as const;
    await createRuntime([hook], document, report).scan(document);
    const root = document.querySelector('[data-island="delivery-times"]') as HTMLElement;
    expect(root.getAttribute("data-island-state")).toBe("failed");
    expect(root.querySelectorAll("table").length).toBeGreaterThan(0);
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toContain('"delivery-times"');
    expect(report.mock.calls[0]?.[0]).toContain("texts.unavailable");
  });
});
