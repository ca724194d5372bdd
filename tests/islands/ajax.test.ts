// @vitest-environment happy-dom
import { screen } from "@testing-library/dom";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { start } from "../../islands/ajax/ajax.ts";
import { insert, modeOf } from "../../islands/ajax/insert.ts";
import { buildFetch } from "../../islands/ajax/request.ts";

beforeAll(() => start(document));
afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

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

describe("an ajax link", () => {
  it("puts the answer into its target and announces it politely", async () => {
    document.body.innerHTML = `${status}<a href="/tip?n=2" data-ajax="true" data-ajax-update="#box">tip</a><div id="box">old</div>`;
    const fetch = respond("<p>Nieuwe tip</p>");
    screen.getByText("tip").click();
    await vi.waitFor(() => expect(screen.getByText("Nieuwe tip")).toBeTruthy());
    expect(fetch).toHaveBeenCalledWith(
      expect.stringMatching(/\/tip\?n=2$/),
      expect.objectContaining({ method: "GET" }),
    );
    await vi.waitFor(() =>
      expect(document.querySelector("[data-ajax-status]")?.textContent).toBe("Bijgewerkt."),
    );
  });

  it("shows its loading indicator while the request runs", async () => {
    document.body.innerHTML = `<a href="/x" data-ajax="true" data-ajax-loading="#spinner" data-ajax-update="#box">laad</a><p id="spinner" hidden>Bezig…</p><div id="box"></div>`;
    let finish: (r: Response) => void = () => {};
    vi.stubGlobal(
      "fetch",
      vi.fn(() => new Promise<Response>((resolve) => (finish = resolve))),
    );
    const spinner = document.getElementById("spinner") as HTMLElement;
    screen.getByText("laad").click();
    await vi.waitFor(() => expect(spinner.hidden).toBe(false));
    expect(screen.getByText("laad").getAttribute("aria-busy")).toBe("true");
    finish(new Response("klaar"));
    await vi.waitFor(() => expect(spinner.hidden).toBe(true));
    expect(document.getElementById("box")?.textContent).toBe("klaar");
  });

  it("when the shopper cancels the confirmation, sends nothing", async () => {
    document.body.innerHTML = `<a href="/x" data-ajax="true" data-ajax-confirm="Zeker weten?" data-ajax-update="#box">weg</a><div id="box">old</div>`;
    const confirm = vi.fn(() => false);
    vi.stubGlobal("confirm", confirm);
    const fetch = respond("new");
    screen.getByText("weg").click();
    await new Promise((r) => setTimeout(r, 10));
    expect(confirm).toHaveBeenCalledWith("Zeker weten?");
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByText("old")).toBeTruthy();
  });
});

describe("an ajax form", () => {
  const form = `${status}<div id="region"><form action="/send" method="post" data-ajax="true" data-ajax-update="#region"><input name="name" value="Anna"><button>Send</button></form></div>`;

  it("when the server finds errors (422), swaps in the form it sent and moves focus to its summary", async () => {
    document.body.innerHTML = form;
    respond(
      `<form><div class="error-summary validation-summary-errors" tabindex="-1" id="s">Fout</div><input name="name" value=""></form>`,
      { status: 422 },
    );
    screen.getByText("Send").click();
    await vi.waitFor(() => expect(document.getElementById("s")).not.toBeNull());
    expect(document.activeElement?.id).toBe("s");
    await vi.waitFor(() =>
      expect(document.querySelector("[data-ajax-status]")?.textContent).toBe("Er zijn fouten."),
    );
  });

  it("when the network or server fails, says so next to the form and keeps what was typed", async () => {
    document.body.innerHTML = form;
    respond("Internal error", { status: 500 });
    const input = document.querySelector("input") as HTMLInputElement;
    input.value = "Anna typed this";
    screen.getByText("Send").click();
    await vi.waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Dat lukte nu niet."));
    expect(input.value).toBe("Anna typed this");
    expect(document.querySelector("form")?.getAttribute("aria-busy")).toBe("false");
  });

  it("when the server refuses with the form's own fragment (429, 503), swaps it in and moves focus to its alert", async () => {
    document.body.innerHTML = form;
    respond(
      `<div role="alert" tabindex="-1" id="refused"><p>Probeer het later opnieuw.</p></div><form><input name="name" value="Anna"></form>`,
      { status: 503, headers: { "content-type": "text/html", "x-ajax-fragment": "true" } },
    );
    screen.getByText("Send").click();
    await vi.waitFor(() => expect(document.getElementById("refused")).not.toBeNull());
    expect(document.activeElement?.id).toBe("refused");
    expect((document.querySelector("#region input") as HTMLInputElement).value).toBe("Anna");
    // Its own alert speaks; the status region does not add "updated" on top.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(document.querySelector("[data-ajax-status]")?.textContent).toBe("");
    expect(document.querySelector(".ajax-error")).toBeNull();
  });

  it("cannot be sent twice while its request runs", async () => {
    document.body.innerHTML = form;
    let finish: (r: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (finish = resolve)));
    vi.stubGlobal("fetch", fetch);
    screen.getByText("Send").click();
    screen.getByText("Send").click();
    await new Promise((r) => setTimeout(r, 10));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(document.querySelector("form")?.getAttribute("aria-busy")).toBe("true");
    finish(new Response("<p>Dank je</p>"));
    await vi.waitFor(() => expect(screen.getByText("Dank je")).toBeTruthy());
  });

  it("sends the clicked button's name and value with the fields", async () => {
    document.body.innerHTML = `${status}<form action="/send" method="post" data-ajax="true"><input name="q" value="1"><button name="action" value="save">Save</button></form>`;
    const fetch = respond("");
    screen.getByText("Save").click();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    const body = String((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body);
    expect(body).toContain("q=1");
    expect(body).toContain("action=save");
  });
});
