// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mount } from "../../islands/modal/modal.tsx";
import { queryClient } from "../../islands/react/query-client.ts";

const texts = {
  close: "Sluiten",
  loading: "Laden…",
  failed: "Dit kunnen we nu niet laden.",
  openPage: "Open als pagina",
};
let unmount: (() => void) | undefined;

function render(props: Record<string, unknown>, link: string) {
  document.body.innerHTML = `
    <p><span class="modal-trigger" data-island="modal"><script type="application/json" data-props>${JSON.stringify({ texts, ...props })}</script><a href="${link}">Meer over opzeggen</a></span></p>
    <section id="vergelijk" data-modal-source><h2>Vergelijk</h2><div data-modal-body><table id="tabel"><tr><td>Plus</td></tr></table></div></section>`;
  act(() => {
    unmount = mount(document.querySelector("[data-island]") as HTMLElement);
  });
}

afterEach(() => {
  act(() => unmount?.());
  unmount = undefined;
  document.body.innerHTML = "";
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe("the modal island", () => {
  it("turns the link into a button with the same words", () => {
    render({ title: "Vergelijk", source: "vergelijk" }, "#vergelijk");
    expect(screen.getByRole("button", { name: "Meer over opzeggen" })).toBeTruthy();
    expect(document.querySelector("a[href='#vergelijk']")).toBeNull();
  });

  it("hides the page's own copy of the content only once the island has mounted, and shows it again when it goes", () => {
    document.body.innerHTML = `<section id="vergelijk" data-modal-source><div data-modal-body>Plus</div></section>`;
    const source = document.getElementById("vergelijk") as HTMLElement;
    // When JavaScript runs but the modal's chunk never arrives, nothing marks the copy.
    expect(source.hasAttribute("data-modal-ready")).toBe(false);

    render({ title: "Vergelijk", source: "vergelijk" }, "#vergelijk");
    expect(document.getElementById("vergelijk")?.hasAttribute("data-modal-ready")).toBe(true);
    act(() => unmount?.());
    unmount = undefined;
    expect(document.getElementById("vergelijk")?.hasAttribute("data-modal-ready")).toBe(false);
  });

  it("shows content from the page in a dialog, moved there while it is open and back after Escape", async () => {
    render({ title: "Vergelijk", source: "vergelijk" }, "#vergelijk");
    const trigger = screen.getByRole("button", { name: "Meer over opzeggen" });
    fireEvent.click(trigger);
    const dialog = await screen.findByRole("dialog");
    expect(dialog.getAttribute("aria-labelledby")).toBeTruthy();
    expect(within(dialog).getByRole("heading", { name: "Vergelijk", level: 2 })).toBeTruthy();
    expect(dialog.querySelector("#tabel")).not.toBeNull();
    expect(document.querySelectorAll("#tabel")).toHaveLength(1);

    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.querySelector("#vergelijk [data-modal-body] #tabel")).not.toBeNull();
  });

  it("closes with its close button", async () => {
    render({ title: "Vergelijk", source: "vergelijk" }, "#vergelijk");
    fireEvent.click(screen.getByRole("button", { name: "Meer over opzeggen" }));
    await screen.findByRole("dialog");
    fireEvent.click(screen.getByRole("button", { name: "Sluiten" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("fetches a page's fragment as an ajax request, through react-query", async () => {
    const fetchMock = vi.fn(
      async () => new Response('<div class="info"><p>Opzeggen kan elke maand.</p></div>'),
    );
    vi.stubGlobal("fetch", fetchMock);
    render({ title: "Opzeggen", url: "/abonnement/uitleg/opzeggen" }, "/abonnement/uitleg/opzeggen");
    fireEvent.click(screen.getByRole("button", { name: "Meer over opzeggen" }));
    expect(await screen.findByText("Opzeggen kan elke maand.")).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/abonnement/uitleg/opzeggen");
    expect((init.headers as Record<string, string>)["x-requested-with"]).toBe("XMLHttpRequest");
  });

  it("says so and links to the page when the fragment cannot be fetched", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("", { status: 503 })),
    );
    render({ title: "Opzeggen", url: "/abonnement/uitleg/opzeggen" }, "/abonnement/uitleg/opzeggen");
    fireEvent.click(screen.getByRole("button", { name: "Meer over opzeggen" }));
    expect(await screen.findByText(/Dit kunnen we nu niet laden\./, {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Open als pagina" }).getAttribute("href")).toBe(
      "/abonnement/uitleg/opzeggen",
    );
  });
});
