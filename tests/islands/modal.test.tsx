// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { mount } from "../../islands/modal/modal.tsx";
import { queryClient } from "../../islands/react/query-client.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

let unmount: (() => void) | undefined;

const fromThisPage = { name: "Venster met inhoud van deze pagina", title: "Inhoud van deze pagina" };
const fromPage = { name: "Venster met inhoud van een andere pagina", url: "/abonnement/uitleg/opzeggen" };
const sourceText = "Deze tekst staat op de patroonbibliotheek zelf.";

/** One of the pattern library's modals, mounted: content from this page, or from another page. */
async function render(example: "fromThisPage" | "fromPage") {
  document.body.innerHTML = await exampleHtml("modal", example);
  act(() => {
    unmount = mount(document.querySelector('[data-island="modal"]') as HTMLElement);
  });
}

const sourceSection = () => document.getElementById("pattern-modal-source") as HTMLElement;

afterAll(closeExamples);
afterEach(() => {
  act(() => unmount?.());
  unmount = undefined;
  document.body.innerHTML = "";
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe("the modal island", () => {
  it("turns the link into a button with the same words", async () => {
    await render("fromThisPage");
    expect(screen.getByRole("button", { name: fromThisPage.name })).toBeTruthy();
    expect(document.querySelector("a[href='#pattern-modal-source']")).toBeNull();
  });

  it("hides the page's own copy of the content only once the island has mounted, and shows it again when it goes", async () => {
    document.body.innerHTML = await exampleHtml("modal", "fromThisPage");
    // When JavaScript runs but the modal's chunk never arrives, nothing marks the copy.
    expect(sourceSection().hasAttribute("data-modal-ready")).toBe(false);
    act(() => {
      unmount = mount(document.querySelector('[data-island="modal"]') as HTMLElement);
    });
    expect(sourceSection().hasAttribute("data-modal-ready")).toBe(true);
    act(() => unmount?.());
    unmount = undefined;
    expect(sourceSection().hasAttribute("data-modal-ready")).toBe(false);
  });

  it("shows content from the page in a dialog, moved there while it is open and back after Escape", async () => {
    await render("fromThisPage");
    const paragraph = sourceSection().querySelector("[data-modal-body] p") as HTMLElement;
    fireEvent.click(screen.getByRole("button", { name: fromThisPage.name }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.getAttribute("aria-labelledby")).toBeTruthy();
    expect(within(dialog).getByRole("heading", { name: fromThisPage.title, level: 2 })).toBeTruthy();
    expect(dialog.contains(paragraph)).toBe(true);
    expect(paragraph.textContent).toContain(sourceText);

    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(sourceSection().querySelector("[data-modal-body] p")).toBe(paragraph);
  });

  it("closes with its close button", async () => {
    await render("fromThisPage");
    fireEvent.click(screen.getByRole("button", { name: fromThisPage.name }));
    await screen.findByRole("dialog");
    fireEvent.click(screen.getByRole("button", { name: "Sluiten" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("fetches a page's fragment as an ajax request, through react-query", async () => {
    const fetchMock = vi.fn(
      async () => new Response('<div class="info"><p>Opzeggen kan elke maand.</p></div>'),
    );
    vi.stubGlobal("fetch", fetchMock);
    await render("fromPage");
    fireEvent.click(screen.getByRole("button", { name: fromPage.name }));
    expect(await screen.findByText("Opzeggen kan elke maand.")).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(fromPage.url);
    expect((init.headers as Record<string, string>)["x-requested-with"]).toBe("XMLHttpRequest");
  });

  it("says so and links to the page when the fragment cannot be fetched", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("", { status: 503 })),
    );
    await render("fromPage");
    fireEvent.click(screen.getByRole("button", { name: fromPage.name }));
    expect(await screen.findByText(/Dit kunnen we nu niet laden\./, {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open als pagina" }).getAttribute("href")).toBe(fromPage.url);
  });
});

describe("a modal whose props lack a text", () => {
  it("stays the server's link, marked failed, and is reported once by name and prop", async () => {
    document.body.innerHTML = await exampleHtml("modal", "fromThisPage");
    const script = document.querySelector('[data-island="modal"] > script[data-props]') as HTMLScriptElement;
    const props = JSON.parse(script.textContent ?? "{}");
    delete props.texts.close;
    script.textContent = JSON.stringify(props);
    const report = vi.fn();
    const hook = {
      kind: "island",
      name: "modal",
      react: true,
      load: () => import("../../islands/modal/modal.tsx"),
    } as const;
    await createRuntime([hook], document, report).scan(document);
    const trigger = document.querySelector('[data-island="modal"]') as HTMLElement;
    expect(trigger.getAttribute("data-island-state")).toBe("failed");
    expect(trigger.querySelector("a.modal-trigger__link")).not.toBeNull();
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toContain('"modal"');
    expect(report.mock.calls[0]?.[0]).toContain("texts.close");
  });
});
