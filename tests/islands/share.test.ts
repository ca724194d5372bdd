// @vitest-environment happy-dom
import { screen } from "@testing-library/dom";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../islands/runtime/runtime.ts";
import * as shareIsland from "../../islands/share/share.ts";
import { mount } from "../../islands/share/share.ts";
import { retargetShare } from "../../islands/share/share-target.ts";
import { shareLinks } from "../../server/domain/share-links.ts";
import { closeExamples, renderExample } from "../support/examples.ts";

/** The pattern library's share block: "default" shares that page, "product" a product page with its summary. */
async function render(locale: "nl" | "de", example: "default" | "product" = "default"): Promise<HTMLElement> {
  const [root] = await renderExample("share", example, locale);
  if (!root) throw new Error("the example rendered no share island");
  return root;
}

/** What the block shares, as the server wrote it on the element. */
const target = (root: HTMLElement) => {
  const { shareUrl: url = "", shareTitle: title = "", shareText: text } = root.dataset;
  return text === undefined ? { url, title } : { url, title, text };
};

const nativeButton = (root: HTMLElement) =>
  root.querySelector("button[data-share-native]") as HTMLButtonElement;

/** A browser with the Web Share API; `share` behaves as the test says. */
function webShare(share: (data: ShareData) => Promise<void>, canShare?: (data: ShareData) => boolean) {
  const spy = vi.fn(share);
  vi.stubGlobal("navigator", Object.assign(Object.create(navigator), { share: spy, canShare }));
  return spy;
}

let unmount: (() => void) | undefined;
afterAll(closeExamples);
afterEach(() => {
  unmount?.();
  unmount = undefined;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("the share buttons' markup", () => {
  it("in Dutch: four plain links named 'Deel via …', each counted by click analytics", async () => {
    const root = await render("nl");
    const links = screen.getAllByRole("link");
    expect(links.map((a) => a.firstChild?.textContent)).toEqual([
      "Deel via Facebook",
      "Deel via Twitter",
      "Deel via WhatsApp",
      "Deel via e-mail",
    ]);
    expect(links.map((a) => a.getAttribute("href"))).toEqual(shareLinks(target(root)).map((l) => l.href));
    expect(links.map((a) => [a.dataset.analytics, a.dataset.analyticsNetwork])).toEqual([
      ["share", "facebook"],
      ["share", "twitter"],
      ["share", "whatsapp"],
      ["share", "email"],
    ]);
  });

  it("in German: 'Teilen über …'", async () => {
    await render("de");
    expect(screen.getAllByRole("link").map((a) => a.firstChild?.textContent)).toEqual([
      "Teilen über Facebook",
      "Teilen über Twitter",
      "Teilen über WhatsApp",
      "Teilen über E-Mail",
    ]);
  });

  it("opens the networks in a new window, safely, and says so to screen-reader users", async () => {
    await render("nl");
    const [facebook, , , email] = screen.getAllByRole("link");
    expect(facebook?.getAttribute("target")).toBe("_blank");
    expect(facebook?.getAttribute("rel")).toBe("noopener noreferrer");
    expect(facebook?.querySelector(".visually-hidden")?.textContent).toBe(" (opent in een nieuw venster)");
    expect(email?.hasAttribute("target"), "mail opens the mail program").toBe(false);
    expect(email?.querySelector(".visually-hidden")).toBeNull();
  });

  it("keeps the generic share button hidden until a script finds the browser can share", async () => {
    const root = await render("nl");
    const button = nativeButton(root);
    expect(button.hidden).toBe(true);
    expect(button.textContent).toBe("Delen…");
    expect([button.dataset.analytics, button.dataset.analyticsNetwork]).toEqual(["share", "native"]);
  });
});

describe("the share island", () => {
  it("leaves the button hidden in a browser without navigator.share", async () => {
    vi.stubGlobal("navigator", Object.assign(Object.create(navigator), { share: undefined }));
    const root = await render("nl");
    unmount = mount(root);
    expect(nativeButton(root).hidden).toBe(true);
  });

  it("leaves it hidden where the browser says it cannot share a link", async () => {
    webShare(
      async () => {},
      () => false,
    );
    const root = await render("nl");
    unmount = mount(root);
    expect(nativeButton(root).hidden).toBe(true);
  });

  it("shows 'Delen…' where the browser can share, and hands it the page's title and address", async () => {
    const share = webShare(async () => {});
    const root = await render("nl", "product");
    const page = target(root);
    expect(page.text, "a product's summary").toBeTruthy();
    unmount = mount(root);
    const button = screen.getByRole("button", { name: "Delen…" });
    expect(button.hidden).toBe(false);
    button.click();
    await vi.waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith(page);
  });

  it("after the product page switched option, shares the new option's address everywhere", async () => {
    const share = webShare(async () => {});
    const root = await render("nl", "product");
    const page = target(root);
    unmount = mount(root);
    const address = new URL(page.url);
    retargetShare(root, `${address.pathname}?formaat=40x30`);

    const url = `${address.origin}${address.pathname}?formaat=40x30`;
    expect(screen.getAllByRole("link").map((a) => a.getAttribute("href"))).toEqual(
      shareLinks({ ...page, url }).map((l) => l.href),
    );
    nativeButton(root).click();
    await vi.waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith({ ...page, url });
  });

  it("shows 'Teilen…' on German pages", async () => {
    webShare(async () => {});
    unmount = mount(await render("de"));
    expect(screen.getByRole("button", { name: "Teilen…" }).hidden).toBe(false);
  });

  it("takes a shopper closing the share sheet as a choice: no error, and the button works again", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const share = webShare(async () => {
      throw new DOMException("Share canceled", "AbortError");
    });
    const root = await render("nl");
    unmount = mount(root);
    nativeButton(root).click();
    await vi.waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(warn).not.toHaveBeenCalled();
    nativeButton(root).click();
    await vi.waitFor(() => expect(share).toHaveBeenCalledTimes(2));
  });

  it("opens one share sheet at a time, however often the button is pressed", async () => {
    let close: () => void = () => {};
    const share = webShare(() => new Promise<void>((resolve) => (close = resolve)));
    const root = await render("nl");
    unmount = mount(root);
    nativeButton(root).click();
    nativeButton(root).click();
    expect(share).toHaveBeenCalledTimes(1);
    close();
    await new Promise((r) => setTimeout(r, 0));
    nativeButton(root).click();
    expect(share).toHaveBeenCalledTimes(2);
  });

  it("reports a share that really failed, without throwing at the shopper", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    webShare(async () => {
      throw new DOMException("not allowed", "NotAllowedError");
    });
    const root = await render("nl");
    unmount = mount(root);
    nativeButton(root).click();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
  });
});

describe("a share block whose markup breaks its contract", () => {
  it("keeps its links, is marked failed and reported once, naming the hook and the missing button", async () => {
    const root = await render("nl");
    nativeButton(root).remove();
    const report = vi.fn();
    const hook = { kind: "island", name: "share", react: false, load: async () => shareIsland } as const;
    await createRuntime([hook], document, report).scan(document);
    expect(root.dataset.islandState).toBe("failed");
    expect(screen.getAllByRole("link")).toHaveLength(4);
    expect(report).toHaveBeenCalledTimes(1);
    expect(String(report.mock.calls[0]?.[0])).toMatch(/"share".*button\[data-share-native\]/);
  });
});
