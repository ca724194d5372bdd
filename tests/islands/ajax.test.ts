// @vitest-environment happy-dom
import { screen } from "@testing-library/dom";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { start } from "../../islands/ajax/ajax.ts";
import { contract } from "../../islands/ajax/contract.ts";
import { insert, modeOf } from "../../islands/ajax/insert.ts";
import { buildFetch } from "../../islands/ajax/request.ts";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import type { HookDefinition } from "../../islands/runtime/types.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

beforeAll(() => start(document));
afterAll(closeExamples);
afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The layout's status region, which every page has once. */
const status = `<div data-ajax-status data-text-updated="Bijgewerkt." data-text-invalid="Er zijn fouten." data-text-failed="Dat lukte nu niet."></div>`;

function respond(body: string, init: ResponseInit = {}) {
  const fetch = vi.fn(async () => new Response(body, { headers: { "content-type": "text/html" }, ...init }));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

describe("data-ajax-mode", () => {
  it("maps the four modes, anything else meaning replace", () => {
    expect(["before", "AFTER", "replace-with", "replace", "", undefined, "append"].map(modeOf)).toEqual([
      "before",
      "after",
      "replace-with",
      "replace",
      "replace",
      "replace",
      "replace",
    ]);
  });

  it("replaces the content, or puts the answer before or after it, or replaces the element itself", () => {
    document.body.innerHTML = `<div id="a"><p>old</p></div><div id="b"><p>old</p></div><div id="c"><p>old</p></div><div id="d"><p>old</p></div>`;
    const $ = (id: string) => document.getElementById(id) as HTMLElement;
    insert([$("a")], "<p>new</p>", "replace");
    insert([$("b")], "<p>new</p>", "before");
    insert([$("c")], "<p>new</p>", "after");
    insert([$("d")], "<section id='d2'>new</section>", "replace-with");
    expect($("a").innerHTML).toBe("<p>new</p>");
    expect($("b").innerHTML).toBe("<p>new</p><p>old</p>");
    expect($("c").innerHTML).toBe("<p>old</p><p>new</p>");
    expect(document.getElementById("d")).toBeNull();
    expect(document.getElementById("d2")?.textContent).toBe("new");
  });

  it("updates every element the selector matches, and never runs scripts in the answer", () => {
    document.body.innerHTML = `<p class="t">1</p><p class="t">2</p>`;
    (window as unknown as { hacked?: boolean }).hacked = false;
    insert([...document.querySelectorAll(".t")], "ok<script>window.hacked = true</script>", "replace");
    expect([...document.querySelectorAll(".t")].map((p) => p.textContent)).toEqual(["ok", "ok"]);
    expect((window as unknown as { hacked?: boolean }).hacked).toBe(false);
  });

  it("leaves out a lazy image's <noscript> copy, so the swapped-in card fetches its photo once", () => {
    document.body.innerHTML = `<div id="tips"></div>`;
    const card = `<img data-lazy-src="/p.jpg" src="data:," alt="Fotoboek"><noscript><img src="/p.jpg" alt="Fotoboek" loading="lazy"></noscript>`;
    insert([document.getElementById("tips") as HTMLElement], card, "replace");
    expect(document.querySelectorAll("#tips img")).toHaveLength(1);
    expect(document.querySelector("#tips img")?.getAttribute("data-lazy-src")).toBe("/p.jpg");
  });
});

describe("the request", () => {
  it("sends GET and POST as they are, with X-Requested-With", () => {
    const get = buildFetch({ url: "/x", method: "get" });
    expect(get.init.method).toBe("GET");
    expect((get.init.headers as Record<string, string>)["X-Requested-With"]).toBe("XMLHttpRequest");
    expect((get.init.headers as Record<string, string>)["X-HTTP-Method-Override"]).toBeUndefined();
  });

  it("sends other methods as POST with X-HTTP-Method-Override", () => {
    for (const method of ["DELETE", "put", "Patch"]) {
      const { init } = buildFetch({ url: "/x", method });
      expect(init.method).toBe("POST");
      expect((init.headers as Record<string, string>)["X-HTTP-Method-Override"]).toBe(method.toUpperCase());
    }
  });

  it("puts GET form fields in the query and POST fields in a urlencoded body, files as multipart", () => {
    const body = new FormData();
    body.append("q", "foto boek");
    expect(buildFetch({ url: "/zoek", method: "GET", body }).url).toMatch(/\/zoek\?q=foto\+boek$/);
    expect(buildFetch({ url: "/x", method: "POST", body }).init.body).toBeInstanceOf(URLSearchParams);
    body.append("photo", new File(["x"], "a.jpg", { type: "image/jpeg" }));
    expect(buildFetch({ url: "/x", method: "POST", body }).init.body).toBeInstanceOf(FormData);
  });
});

/** The pattern library's example, after the layout's status region. */
async function render(name: string) {
  document.body.innerHTML = status + (await exampleHtml("ajax", name));
}

const tips = (box: string) => [...document.querySelectorAll(`${box} .pattern-tip`)].map((p) => p.textContent);

describe("an ajax link", () => {
  it("puts the answer into its target and announces it politely", async () => {
    await render("modes");
    const fetch = respond("<p>Nieuwe tip</p>");
    screen.getByText("Vervang de tip").click();
    await vi.waitFor(() => expect(screen.getByText("Nieuwe tip")).toBeTruthy());
    expect(document.querySelector("#tip-box")?.innerHTML).toBe("<p>Nieuwe tip</p>");
    expect(fetch).toHaveBeenCalledWith(
      expect.stringMatching(/\/patroonbibliotheek\/tip\?n=2$/),
      expect.objectContaining({ method: "GET" }),
    );
    await vi.waitFor(() =>
      expect(document.querySelector("[data-ajax-status]")?.textContent).toBe("Bijgewerkt."),
    );
  });

  it("puts the answer before or after the tip, or in place of the whole box", async () => {
    await render("modes");
    const before = tips("#tip-box");
    respond('<p class="pattern-tip">ervoor</p>');
    screen.getByText("Tip ervoor").click();
    await vi.waitFor(() => expect(tips("#tip-box")).toEqual(["ervoor", ...before]));
    respond('<p class="pattern-tip">erachter</p>');
    screen.getByText("Tip erachter").click();
    await vi.waitFor(() => expect(tips("#tip-box")).toEqual(["ervoor", ...before, "erachter"]));
    respond('<p class="pattern-tip" id="whole">heel</p>');
    screen.getByText("Vervang het hele vak").click();
    await vi.waitFor(() => expect(document.getElementById("tip-box-whole")).toBeNull());
    expect(document.getElementById("whole")?.parentElement?.id).toBe("ajax-link");
  });

  it("shows its loading indicator while the request runs", async () => {
    await render("confirm");
    vi.stubGlobal("confirm", () => true);
    let finish: (r: Response) => void = () => {};
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>((resolve) => (finish = resolve))),
    );
    const spinner = document.getElementById("tip-loading") as HTMLElement;
    const link = screen.getByText("Nieuwe tip, na een vraag");
    link.click();
    await vi.waitFor(() => expect(spinner.hidden).toBe(false));
    expect(link.getAttribute("aria-busy")).toBe("true");
    finish(new Response("klaar"));
    await vi.waitFor(() => expect(spinner.hidden).toBe(true));
    expect(document.getElementById("tip-box-confirm")?.textContent).toBe("klaar");
  });

  it("when the shopper cancels the confirmation, sends nothing", async () => {
    await render("confirm");
    const confirm = vi.fn(() => false);
    vi.stubGlobal("confirm", confirm);
    const fetch = respond("new");
    const tip = document.getElementById("tip-box-confirm")?.textContent;
    screen.getByText("Nieuwe tip, na een vraag").click();
    await new Promise((r) => setTimeout(r, 10));
    expect(confirm).toHaveBeenCalledWith("Wil je deze tip vervangen?");
    expect(fetch).not.toHaveBeenCalled();
    expect(document.getElementById("tip-box-confirm")?.textContent).toBe(tip);
  });
});

describe("a form that deletes", () => {
  it("is sent as POST with X-HTTP-Method-Override: DELETE and its CSRF token, and shows the answer", async () => {
    await render("methodOverride");
    const fetch = respond('<p class="pattern-tip pattern-tip--deleted">Weg.</p>');
    screen.getByText("Verwijder de tip").click();
    await vi.waitFor(() => expect(document.getElementById("tip-delete-result")?.textContent).toBe("Weg."));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/patroonbibliotheek\/tip$/);
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>)["X-HTTP-Method-Override"]).toBe("DELETE");
    expect(String(init.body)).toMatch(/_csrf=./);
  });
});

describe("a link whose attributes break the ajax contract", () => {
  it("is reported once, naming the hook and the attribute", async () => {
    await render("modes");
    document.querySelector('[data-ajax-mode="before"]')?.setAttribute("data-ajax-mode", "prepend");
    const report = vi.fn();
    const hook: HookDefinition = {
      kind: "behaviour",
      name: "ajax",
      selector: '[data-ajax="true"]',
      load: async () => ({ start: () => {}, contract }),
    };
    await createRuntime([hook], document, report).scan(document);
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]?.[0]).toMatch(/"ajax".*data-ajax-mode="prepend"/);
  });
});

describe("an ajax form", () => {
  const region = () => document.getElementById("ajax-form-region") as HTMLElement;
  const nameInput = () => region().querySelector<HTMLInputElement>('input[name="name"]') as HTMLInputElement;
  const save = () => screen.getByRole("button", { name: "Naam opslaan" });

  it("when the server finds errors (422), swaps in the form it sent and moves focus to its summary", async () => {
    await render("form");
    respond(
      `<form><div class="error-summary validation-summary-errors" tabindex="-1" id="s">Fout</div><input name="name" value=""></form>`,
      { status: 422 },
    );
    save().click();
    await vi.waitFor(() => expect(document.getElementById("s")).not.toBeNull());
    expect(region().contains(document.getElementById("s"))).toBe(true);
    expect(document.activeElement?.id).toBe("s");
    await vi.waitFor(() =>
      expect(document.querySelector("[data-ajax-status]")?.textContent).toBe("Er zijn fouten."),
    );
  });

  it("when the network or server fails, says so next to the form and keeps what was typed", async () => {
    await render("form");
    respond("Internal error", { status: 500 });
    const input = nameInput();
    input.value = "Anna typed this";
    save().click();
    await vi.waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Dat lukte nu niet."));
    expect(input.value).toBe("Anna typed this");
    expect(region().querySelector("form")?.getAttribute("aria-busy")).toBe("false");
  });

  it("when the server refuses with the form's own fragment (429, 503), swaps it in and moves focus to its alert", async () => {
    await render("form");
    respond(
      `<div role="alert" tabindex="-1" id="refused"><p>Probeer het later opnieuw.</p></div><form><input name="name" value="Anna"></form>`,
      { status: 503, headers: { "content-type": "text/html", "x-ajax-fragment": "true" } },
    );
    save().click();
    await vi.waitFor(() => expect(document.getElementById("refused")).not.toBeNull());
    expect(document.activeElement?.id).toBe("refused");
    expect(nameInput().value).toBe("Anna");
    // Its own alert speaks; the status region does not add "updated" on top.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(document.querySelector("[data-ajax-status]")?.textContent).toBe("");
    expect(document.querySelector(".ajax-error")).toBeNull();
  });

  it("cannot be sent twice while its request runs", async () => {
    await render("form");
    let finish: (r: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (finish = resolve)));
    vi.stubGlobal("fetch", fetch);
    save().click();
    save().click();
    await new Promise((r) => setTimeout(r, 10));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(region().querySelector("form")?.getAttribute("aria-busy")).toBe("true");
    finish(new Response("<p>Dank je</p>"));
    await vi.waitFor(() => expect(screen.getByText("Dank je")).toBeTruthy());
  });

  it("sends the clicked button's name and value with the fields", async () => {
    await render("form");
    const fetch = respond("");
    screen.getByRole("button", { name: "Naam controleren" }).click();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    const body = String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body);
    expect(body).toContain("name=Anna");
    expect(body).toContain("action=check");
    expect(body).not.toContain("action=save");
  });
});
