// @vitest-environment happy-dom
import { fireEvent, waitFor } from "@testing-library/dom";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { start } from "../../islands/ajax/ajax.ts";
import { ajaxUpdatedEvent } from "../../islands/ajax/events.ts";
import { closeExamples, exampleHtml } from "../support/examples.ts";

/** The ajax hook's data-ajax-trigger="input": a form that sends itself as the shopper types. */
beforeAll(() => start(document));
afterAll(closeExamples);
afterEach(() => {
  document.body.innerHTML = "";
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The layout's status region, which every page has once. */
const status = `<div data-ajax-status data-text-updated="Bijgewerkt." data-text-invalid="Er zijn fouten." data-text-failed="Dat lukte nu niet."></div>`;

async function render() {
  document.body.innerHTML = `${await exampleHtml("ajax", "typing")}${status}`;
  const form = document.querySelector<HTMLFormElement>('form[data-ajax-trigger="input"]') as HTMLFormElement;
  const input = form.querySelector("input") as HTMLInputElement;
  const box = document.getElementById("tip-box-typing") as HTMLElement;
  return { form, input, box };
}

function type(input: HTMLInputElement, value: string) {
  input.focus();
  input.value = value;
  fireEvent.input(input);
}

/** fetch that answers when the test says so, keeping each request. */
function controlledFetch() {
  const calls: Array<{ url: string; init: RequestInit; answer: (body: string) => void; fail: () => void }> =
    [];
  const fetch = vi.fn(
    (url: string, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        calls.push({
          url,
          init,
          answer: (body) => resolve(new Response(body, { headers: { "content-type": "text/html" } })),
          fail: () => reject(new TypeError("network down")),
        });
      }),
  );
  vi.stubGlobal("fetch", fetch);
  return calls;
}

describe('a form with data-ajax-trigger="input"', () => {
  it("sends itself once typing pauses, with the latest words, and puts the answer in without moving focus", async () => {
    const calls = controlledFetch();
    const { form, input, box } = await render();
    const updated = vi.fn();
    form.addEventListener(ajaxUpdatedEvent, updated);
    type(input, "1");
    type(input, "3");
    await waitFor(() => expect(calls).toHaveLength(1));
    const call = calls[0];
    if (!call) throw new Error("no request");
    expect(new URL(call.url).search).toBe("?n=3");
    expect((call.init.headers as Record<string, string>)["X-Requested-With"]).toBe("XMLHttpRequest");
    call.answer("<p>Tip drie</p>");
    await waitFor(() => expect(box.textContent).toBe("Tip drie"));
    expect(document.activeElement).toBe(input);
    expect(updated).toHaveBeenCalledTimes(1);
    // Typing is no reason to speak: what the answer means is the page's to say.
    expect(document.querySelector("[data-ajax-status]")?.textContent).toBe("");
    expect(form.getAttribute("aria-busy")).toBe("false");
  });

  it("drops an answer that comes after a newer request was sent", async () => {
    const calls = controlledFetch();
    const { input, box } = await render();
    type(input, "1");
    await waitFor(() => expect(calls).toHaveLength(1));
    type(input, "2");
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]?.init.signal?.aborted).toBe(true);
    calls[1]?.answer("<p>Tip twee</p>");
    await waitFor(() => expect(box.textContent).toBe("Tip twee"));
    calls[0]?.answer("<p>Tip een</p>");
    await Promise.resolve();
    expect(box.textContent).toBe("Tip twee");
  });

  it("fails quietly: no message, and the form still submits as a plain form", async () => {
    const calls = controlledFetch();
    const { form, input } = await render();
    type(input, "2");
    await waitFor(() => expect(calls).toHaveLength(1));
    calls[0]?.fail();
    await waitFor(() => expect(form.getAttribute("aria-busy")).toBe("false"));
    expect(document.querySelector(".ajax-error")).toBeNull();
    expect(document.querySelector("[data-ajax-status]")?.textContent).toBe("");
  });

  it("leaves submitting to the browser: the page the form names opens", async () => {
    controlledFetch();
    const { form } = await render();
    let prevented: boolean | undefined;
    const after = (event: Event) => {
      prevented = event.defaultPrevented;
      event.preventDefault();
    };
    // Added after the behaviour's own listener, so it sees what the behaviour did.
    document.addEventListener("submit", after);
    try {
      form.requestSubmit();
      expect(prevented).toBe(false);
    } finally {
      document.removeEventListener("submit", after);
    }
  });
});
