import { describe, expect, it } from "vitest";
import { shareLinks, shareNetworks } from "../../../server/domain/share-links.ts";

const page = {
  url: "https://shop.example/fotoboeken/fotoboek-a4?kleur=rood&maat=30x21",
  title: "Fotoboek A4 & meer",
};
const href = (network: string, links = shareLinks(page)) =>
  links.find((l) => l.network === network)?.href ?? "";

describe("the share links", () => {
  it("offer Facebook, Twitter, WhatsApp and e-mail, in that order", () => {
    expect(shareLinks(page).map((l) => l.network)).toEqual([...shareNetworks]);
    expect(shareNetworks).toEqual(["facebook", "twitter", "whatsapp", "email"]);
  });

  it("hand Facebook the page's address, whole, query string and all", () => {
    const link = new URL(href("facebook"));
    expect(link.origin + link.pathname).toBe("https://www.facebook.com/sharer/sharer.php");
    expect(link.searchParams.get("u")).toBe(page.url);
    expect([...link.searchParams.keys()]).toEqual(["u"]);
  });

  it("hand Twitter the address and the title as the tweet's text", () => {
    const link = new URL(href("twitter"));
    expect(link.origin + link.pathname).toBe("https://twitter.com/intent/tweet");
    expect(link.searchParams.get("url")).toBe(page.url);
    expect(link.searchParams.get("text")).toBe(page.title);
  });

  it("hand WhatsApp one message: the title, a space, the address", () => {
    const link = new URL(href("whatsapp"));
    expect(link.origin + link.pathname).toBe("https://wa.me/");
    expect(link.searchParams.get("text")).toBe(`${page.title} ${page.url}`);
  });

  it("fill in an e-mail's subject and body, encoded so an ampersand in the title cannot cut it short", () => {
    const mail = href("email");
    expect(mail.startsWith("mailto:?subject=")).toBe(true);
    const params = new URLSearchParams(mail.slice("mailto:?".length));
    expect(params.get("subject")).toBe(page.title);
    expect(params.get("body")).toBe(`${page.title}\r\n\r\n${page.url}`);
    // A space is %20 in a mailto address, never "+" (mail programs would show the plus).
    expect(mail).not.toContain("+");
    expect(mail).toContain("Fotoboek%20A4%20%26%20meer");
  });

  it("put the page's own line in the e-mail body when there is one", () => {
    const mail = href("email", shareLinks({ ...page, text: "Kijk eens wat ik vond" }));
    expect(new URLSearchParams(mail.slice("mailto:?".length)).get("body")).toBe(
      `Kijk eens wat ik vond\r\n\r\n${page.url}`,
    );
  });

  it("open the web networks in a new window and the e-mail link in the mail program", () => {
    expect(shareLinks(page).map((l) => [l.network, l.external])).toEqual([
      ["facebook", true],
      ["twitter", true],
      ["whatsapp", true],
      ["email", false],
    ]);
  });

  it("keep German umlauts and other non-ASCII text intact", () => {
    const german = { url: "https://shop.example/de/fotobücher", title: "Fotobuch „Größe“" };
    const link = new URL(href("twitter", shareLinks(german)));
    expect(link.searchParams.get("url")).toBe(german.url);
    expect(link.searchParams.get("text")).toBe(german.title);
  });
});
