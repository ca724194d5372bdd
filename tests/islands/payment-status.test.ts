// @vitest-environment happy-dom
import { screen } from "@testing-library/dom";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { mount } from "../../islands/payment-status/payment-status.ts";
import { closeExamples, exampleHtml, renderExample } from "../support/examples.ts";

/**
 * The order page's payment part with a payment still open. Its markup is the pattern
 * library's failed example (the form and all), set to "open" as the order page renders it
 * while a payment is under way; the page's answers are the library's own renderings.
 */
const orderPage = "/bestelling/100042";
let paidFragment = "";
let openFragment = "";

beforeAll(async () => {
  paidFragment = await exampleHtml("payment-status", "default");
  openFragment = asOpen(await exampleHtml("payment-status", "failed"));
});
afterAll(closeExamples);

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  document.body.innerHTML = "";
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The failed example's markup as the order page gives it while its payment is open. */
function asOpen(html: string): string {
  const template = document.createElement("template");
  template.innerHTML = html;
  const part = template.content.querySelector<HTMLElement>('[data-island="payment-status"]');
  if (!part) throw new Error("the example has no payment-status part");
  part.dataset.state = "open";
  part.dataset.props = JSON.stringify({ url: orderPage, final: false });
  const message = part.querySelector("[data-payment-status-message]");
  if (message) message.textContent = "We hebben je betaling nog niet ontvangen.";
  return template.innerHTML;
}

async function renderOpen(): Promise<HTMLElement> {
  document.documentElement.lang = "nl";
  document.body.innerHTML = openFragment;
  const part = document.querySelector<HTMLElement>('[data-island="payment-status"]');
  if (!part) throw new Error("no payment-status part");
  return part;
}

/** fetch answering with each of `answers` in turn (the last one from then on); the calls are kept. */
function answering(...answers: Array<() => Response | Promise<Response>>) {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    calls.push({ url, headers: init.headers as Record<string, string> });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (!answer) throw new Error("no answer");
    return answer();
  });
  return calls;
}

const html =
  (body: string, status = 200) =>
  () =>
    new Response(body, { status, headers: { "content-type": "text/html" } });

describe("the payment-status island", () => {
  it("asks the order page for its part after 1 s, 2 s, 4 s … and then every 30 s while the payment stays open", async () => {
    vi.useFakeTimers();
    const calls = answering(html(openFragment));
    unmount = mount(await renderOpen());

    const waits = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000];
    for (const [i, wait] of waits.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(calls, `before wait ${i + 1}`).toHaveLength(i);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls, `after wait ${i + 1}`).toHaveLength(i + 1);
    }
    expect(calls[0]).toEqual({
      url: orderPage,
      headers: { "X-Requested-With": "XMLHttpRequest", Accept: "text/html" },
    });
    // Nothing changed: nothing was replaced and nothing said.
    expect(screen.getByRole("button", { name: "Betaal opnieuw" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("");
  });

  it("shows the new state when the payment is decided, says so politely, and stops asking", async () => {
    vi.useFakeTimers();
    const calls = answering(html(openFragment), html(paidFragment));
    const part = await renderOpen();
    unmount = mount(part);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(part.dataset.state).toBe("open");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toHaveLength(2);
    expect(part.dataset.state).toBe("paid");
    expect(part.textContent).toContain("Betaald");
    expect(screen.queryByRole("button", { name: "Betaal opnieuw" })).toBeNull();
    // Still named by its heading, whose id follows the state, and styled as paid.
    const label = part.getAttribute("aria-labelledby") ?? "";
    expect(document.getElementById(label)?.textContent).toBe("Betaling");
    expect(part.classList.contains("payment-status--paid")).toBe(true);
    const status = screen.getByRole("status");
    expect(status.getAttribute("aria-live")).toBe("polite");
    expect(status.textContent).toBe(part.querySelector("[data-payment-status-message]")?.textContent?.trim());
    expect(status.textContent).not.toBe("");

    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(2);
  });

  it("keeps what it shows through an error answer or a lost connection, and asks again", async () => {
    vi.useFakeTimers();
    const calls = answering(
      html("<h1>Er ging iets mis</h1>", 500),
      () => Promise.reject(new TypeError("network down")),
      html("<p>not a payment part</p>"),
      html(paidFragment),
    );
    const part = await renderOpen();
    unmount = mount(part);

    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(calls).toHaveLength(3);
    expect(part.dataset.state).toBe("open");
    expect(screen.getByRole("button", { name: "Betaal opnieuw" })).toBeTruthy();
    await vi.advanceTimersByTimeAsync(8_000);
    expect(part.dataset.state).toBe("paid");
  });

  it("asks nothing when the state is final from the start", async () => {
    vi.useFakeTimers();
    const calls = answering(html(openFragment));
    const [part] = await renderExample("payment-status", "failed");
    if (!part) throw new Error("no payment-status part");
    unmount = mount(part);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(0);
  });

  it("stops asking when it is unmounted", async () => {
    vi.useFakeTimers();
    const calls = answering(html(openFragment));
    unmount = mount(await renderOpen());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(1);
    unmount();
    unmount = undefined;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
    expect(screen.queryByRole("status")).toBeNull();
  });
});
