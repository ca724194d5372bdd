// @vitest-environment happy-dom
import { screen } from "@testing-library/dom";
import { Eta } from "eta";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mount } from "../../islands/share/share.ts";
import { retargetShare } from "../../islands/share/share-target.ts";
import { paths } from "../../server/app.ts";
import { shareLinks } from "../../server/domain/share-links.ts";
import { renderAttributes } from "../../server/http/html.ts";
import { loadMessages } from "../../server/i18n/index.ts";
import { createTranslate } from "../../server/i18n/translate.ts";

const eta = new Eta({ views: paths.views, autoEscape: true });
const messages = loadMessages(paths.locales);
const page = { url: "https://shop.example/fotoboeken/klassiek", title: "Klassiek fotoboek" };

/** The real partial, as a page renders it. */
function render(
  locale: "nl" | "de",
  share: { url: string; title: string; text?: string } = page,
): HTMLElement {
  document.documentElement.lang = locale;
  document.body.innerHTML = eta.render("/partials/share-buttons", {
    share,
    shareLinks,
    t: createTranslate(locale, messages[locale]),
    attrs: renderAttributes,
  });
  const root = document.querySelector<HTMLElement>('[data-island="share"]');
  if (!root) throw new Error("the partial rendered no share island");
  return root;
}

const nativeButton = (root: HTMLElement) =>
  root.querySelector("button[data-share-native]") as HTMLButtonElement;

/** A browser with the Web Share API; `share` behaves as the test says. */
function webShare(share: (data: ShareData) => Promise<void>, canShare?: (data: ShareData) => boolean) {
  const spy = vi.fn(share);
  vi.stubGlobal("navigator", Object.assign(Object.create(navigator), { share: spy, canShare }));
  return spy;
}

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("the share buttons' markup", () => {
  it("in Dutch: four plain links named 'Deel via …', each counted by click analytics", () => {
    render("nl");
    const links = screen.getAllByRole("link");
    expect(links.map((a) => a.firstChild?.textContent)).toEqual([
      "Deel via Facebook",
      "Deel via Twitter",
      "Deel via WhatsApp",
      "Deel via e-mail",
    ]);
    expect(links.map((a) => a.getAttribute("href"))).toEqual(shareLinks(page).map((l) => l.href));
    expect(links.map((a) => [a.dataset.analytics, a.dataset.analyticsNetwork])).toEqual([
      ["share", "facebook"],
      ["share", "twitter"],
      ["share", "whatsapp"],
      ["share", "email"],
    ]);
  });

  it("in German: 'Teilen über …'", () => {
    render("de");
    expect(screen.getAllByRole("link").map((a) => a.firstChild?.textContent)).toEqual([
      "Teilen über Facebook",
      "Teilen über Twitter",
      "Teilen über WhatsApp",
      "Teilen über E-Mail",
    ]);
  });

  it("opens the networks in a new window, safely, and says so to screen-reader users", () => {
    render("nl");
    const [facebook, , , email] = screen.getAllByRole("link");
    expect(facebook?.getAttribute("target")).toBe("_blank");
    expect(facebook?.getAttribute("rel")).toBe("noopener noreferrer");
    expect(facebook?.querySelector(".visually-hidden")?.textContent).toBe(" (opent in een nieuw venster)");
    expect(email?.hasAttribute("target"), "mail opens the mail program").toBe(false);
    expect(email?.querySelector(".visually-hidden")).toBeNull();
  });

  it("keeps the generic share button hidden until a script finds the browser can share", () => {
    const root = render("nl");
    const button = nativeButton(root);
    expect(button.hidden).toBe(true);
    expect(button.textContent).toBe("Delen…");
    expect([button.dataset.analytics, button.dataset.analyticsNetwork]).toEqual(["share", "native"]);
  });
});

describe("the share island", () => {
  it("leaves the button hidden in a browser without navigator.share", () => {
    vi.stubGlobal("navigator", Object.assign(Object.create(navigator), { share: undefined }));
    const root = render("nl");
    unmount = mount(root);
    expect(nativeButton(root).hidden).toBe(true);
  });

  it("leaves it hidden where the browser says it cannot share a link", () => {
    webShare(
      async () => {},
      () => false,
    );
    const root = render("nl");
    unmount = mount(root);
    expect(nativeButton(root).hidden).toBe(true);
  });

  it("shows 'Delen…' where the browser can share, and hands it the page's title and address", async () => {
    const share = webShare(async () => {});
    const root = render("nl", { ...page, text: "Mooi fotoboek" });
    unmount = mount(root);
    const button = screen.getByRole("button", { name: "Delen…" });
    expect(button.hidden).toBe(false);
    button.click();
    await vi.waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith({ url: page.url, title: page.title, text: "Mooi fotoboek" });
  });

  it("after the product page switched option, shares the new option's address everywhere", async () => {
    const share = webShare(async () => {});
    const root = render("nl", { url: `${page.url}?formaat=30x21`, title: page.title, text: "Mooi" });
    unmount = mount(root);
    retargetShare(root, "/fotoboeken/klassiek?formaat=40x30");

    const url = "https://shop.example/fotoboeken/klassiek?formaat=40x30";
    expect(screen.getAllByRole("link").map((a) => a.getAttribute("href"))).toEqual(
      shareLinks({ url, title: page.title, text: "Mooi" }).map((l) => l.href),
    );
    nativeButton(root).click();
    await vi.waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share).toHaveBeenCalledWith({ url, title: page.title, text: "Mooi" });
  });

  it("shows 'Teilen…' on German pages", () => {
    webShare(async () => {});
    unmount = mount(render("de"));
    expect(screen.getByRole("button", { name: "Teilen…" }).hidden).toBe(false);
  });

  it("takes a shopper closing the share sheet as a choice: no error, and the button works again", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const share = webShare(async () => {
      throw new DOMException("Share canceled", "AbortError");
    });
    const root = render("nl");
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
    const root = render("nl");
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
    const root = render("nl");
    unmount = mount(root);
    nativeButton(root).click();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
  });
});
