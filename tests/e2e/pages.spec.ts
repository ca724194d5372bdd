import type { ConsoleMessage, Page } from "@playwright/test";
import { expectAccessible } from "./axe.ts";
import { expect, test } from "./fixtures.ts";
import { openSiteMenu } from "./site-menu.ts";

type Locale = "nl" | "de";

interface ShopPage {
  /** How a shopper would name the page. */
  name: string;
  path: string;
  status: 200 | 404;
  lang: Locale;
  /** Where the language switcher must lead: the same page in the other language. */
  other: { lang: Locale; path: string };
  /** The home page a "not found" page links back to; routed pages have canonical and hreflang links instead. */
  home?: string;
  /** Resources the page fails to load on purpose (the pattern library's broken-image example). */
  missingOnPurpose?: string[];
}

const languageName: Record<Locale, string> = { nl: "Dutch", de: "German" };

const pages: ShopPage[] = [
  { name: "the Dutch home page", path: "/", status: 200, lang: "nl", other: { lang: "de", path: "/de" } },
  { name: "the German home page", path: "/de", status: 200, lang: "de", other: { lang: "nl", path: "/" } },
  {
    name: "the Dutch shopping cart, while it is empty",
    path: "/winkelwagen/inhoud",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/einkaufswagen/inhalt" },
  },
  {
    name: "the German shopping cart, while it is empty",
    path: "/einkaufswagen/inhalt",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/winkelwagen/inhoud" },
  },
  {
    name: "the pattern library, in Dutch",
    path: "/patroonbibliotheek",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/musterbibliothek" },
    missingOnPurpose: ["/static/images/missing-example.jpg"],
  },
  {
    name: "the pattern library, in German",
    path: "/musterbibliothek",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/patroonbibliotheek" },
    missingOnPurpose: ["/static/images/missing-example.jpg"],
  },
  {
    name: "a Dutch category page",
    path: "/assortiment/fotoboeken",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/sortiment/fotobuecher" },
  },
  {
    name: "a German category page",
    path: "/sortiment/wanddeko",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/assortiment/wanddecoratie" },
  },
  {
    name: "a Dutch product page",
    path: "/assortiment/fotoboeken/exclusief-fotoboek",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/sortiment/fotobuecher/exklusives-fotobuch" },
  },
  {
    name: "a German product page, with an option chosen",
    path: "/sortiment/wanddeko/foto-auf-leinwand?ausrichtung=hochformat&format=30x40",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/assortiment/wanddecoratie/foto-op-canvas?orientatie=staand&formaat=30x40" },
  },
  {
    name: "the Dutch customer-service page",
    path: "/klantenservice",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/kundenservice" },
  },
  {
    name: "the German customer-service page",
    path: "/kundenservice",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/klantenservice" },
  },
  {
    name: "the Dutch FAQ overview",
    path: "/klantenservice/faq/overzicht",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/kundenservice/faq/uebersicht" },
  },
  {
    name: "a German FAQ topic",
    path: "/kundenservice/faq/lieferung",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/klantenservice/faq/levering" },
  },
  {
    name: "a Dutch FAQ question",
    path: "/klantenservice/faq/levering/feestdagen",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/kundenservice/faq/lieferung/feiertage" },
  },
  {
    name: "the Dutch contact form",
    path: "/klantenservice/contact",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/kundenservice/kontakt" },
  },
  {
    name: "the German contact form",
    path: "/kundenservice/kontakt",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/klantenservice/contact" },
  },
  {
    name: "the Dutch delivery times",
    path: "/klantenservice/levertijden",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/kundenservice/lieferzeiten" },
  },
  {
    name: "the German delivery times",
    path: "/kundenservice/lieferzeiten",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/klantenservice/levertijden" },
  },
  {
    name: "the Dutch subscription page",
    path: "/abonnement",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/abo" },
  },
  {
    name: "the German subscription page",
    path: "/abo",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/abonnement" },
  },
  {
    name: "an explanation from the subscription page, as a page of its own",
    path: "/abonnement/uitleg/opzeggen",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/abo/erklaerung/kuendigung" },
  },
  {
    name: "the photo editor's start, choosing a photo book",
    path: "/fotoboek-maken",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/fotobuch-gestalten" },
  },
  {
    name: "the German photo editor's start, with a format carried over",
    path: "/fotobuch-gestalten?fotobuch=exklusives-fotobuch&ausrichtung=hochformat&format=21x30",
    status: 200,
    lang: "de",
    other: {
      lang: "nl",
      path: "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30",
    },
  },
  // The legal pages share one template; each is checked in one language, the other has the same markup.
  {
    name: "the German Impressum",
    path: "/impressum",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/bedrijfsgegevens" },
  },
  {
    name: "the Dutch terms and conditions",
    path: "/algemene-voorwaarden",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/agb" },
  },
  {
    name: "the Dutch withdrawal information with its model form",
    path: "/herroepingsrecht",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/widerrufsbelehrung" },
  },
  {
    name: "the German withdrawal flow for orders",
    path: "/widerrufsbelehrung/vertrag-widerrufen",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/herroepingsrecht/overeenkomst-herroepen" },
  },
  {
    name: "the German shipping page, with its tables",
    path: "/versand-und-lieferung",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/verzending-en-levering" },
  },
  {
    name: "the Dutch returns and complaints page",
    path: "/retourneren-en-klachten",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/reklamation" },
  },
  {
    name: "the German privacy statement",
    path: "/datenschutz",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/privacy" },
  },
  {
    name: "the Dutch cookie list",
    path: "/cookies",
    status: 200,
    lang: "nl",
    other: { lang: "de", path: "/cookie-hinweise" },
  },
  {
    name: "the German accessibility statement",
    path: "/barrierefreiheit",
    status: 200,
    lang: "de",
    other: { lang: "nl", path: "/toegankelijkheidsverklaring" },
  },
  {
    name: "a Dutch address that does not exist",
    path: "/bestaat-niet",
    status: 404,
    lang: "nl",
    other: { lang: "de", path: "/de" },
    home: "/",
  },
  {
    name: "a German address that does not exist",
    path: "/de/gibt-es-nicht",
    status: 404,
    lang: "de",
    other: { lang: "nl", path: "/" },
    home: "/de",
  },
];

async function open(page: Page, shopPage: ShopPage): Promise<void> {
  const response = await page.goto(shopPage.path);
  expect(response?.status(), `status of ${shopPage.path}`).toBe(shopPage.status);
}

/** Visible elements that stick out past the right edge of the viewport without being in a scroll box of their own. */
function elementsPastRightEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipsSideways = (element: Element) => getComputedStyle(element).overflowX !== "visible";
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : "";
      const classes = [...element.classList].map((c) => `.${c}`).join("");
      return `${element.tagName.toLowerCase()}${id}${classes}`;
    };
    const offenders: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.right <= width + 0.5) continue;
      // Content inside a box that scrolls or clips by design (a carousel, a wide table) is fine,
      // unless that box is the page itself: html or body hiding overflow cuts content off.
      let contained = false;
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      ) {
        if (clipsSideways(parent)) {
          contained = true;
          break;
        }
      }
      if (!contained) offenders.push(`${describe(element)} (right edge ${Math.round(rect.right)} px)`);
    }
    return offenders;
  });
}

for (const shopPage of pages) {
  const language = languageName[shopPage.lang];
  const otherLanguage = languageName[shopPage.other.lang];

  test.describe(`A shopper visiting ${shopPage.name} (${shopPage.path})`, () => {
    // One page load per screen for the checks that read the page as it is: every test costs a
    // browser context and a load, which on a 2-core machine is most of what a check costs.
    test(`reads it in ${language} (HTTP ${shopPage.status}) under one main heading, without scrolling sideways or browser errors`, async ({
      page,
      baseURL,
      situation,
      blockedScripts,
    }, testInfo) => {
      // The pattern library shows every hook with every example: axe needs about 20 s for it
      // on this 2-core machine, too close to the 30 s every other page gets.
      if (testInfo.project.metadata.axe && shopPage.name.startsWith("the pattern library")) {
        test.setTimeout(90_000);
      }
      const problems: string[] = [];
      // The browser reports the page's own 404, and scripts the JavaScript-off variant stopped.
      const expected = (message: ConsoleMessage) => {
        const url = message.location().url;
        if (blockedScripts.includes(url)) return true;
        if (shopPage.missingOnPurpose?.includes(new URL(url).pathname)) return true;
        return (
          shopPage.status === 404 && message.text().includes("404") && new URL(url).pathname === shopPage.path
        );
      };
      page.on("console", (message) => {
        if (message.type() === "error" && !expected(message)) problems.push(message.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));

      await open(page, shopPage);
      await expect(page.locator("html"), situation).toHaveAttribute("lang", shopPage.lang);
      await expect(page.locator("h1"), situation).toHaveCount(1);
      await expect(page.locator("h1"), situation).toBeVisible();

      await test.step("the page fits the screen: no scrolling sideways", async () => {
        const offenders = await elementsPastRightEdge(page);
        expect(offenders, `content past the right edge ${situation}`).toEqual([]);
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, `page width ${situation}`).toBeLessThanOrEqual(innerWidth);
      });

      const home = shopPage.home;
      if (home) {
        await test.step("a page that is not found links back to the home page", async () => {
          await expect(page.locator(`main a[href="${home}"]`).first(), situation).toBeVisible();
          await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
        });
      } else {
        await test.step("search engines learn its address in both languages", async () => {
          const href = async (selector: string) => {
            const links = page.locator(selector);
            await expect(links, selector).toHaveCount(1);
            const url = new URL((await links.getAttribute("href")) ?? "", baseURL);
            return url.pathname + url.search;
          };
          const paths = { [shopPage.lang]: shopPage.path, [shopPage.other.lang]: shopPage.other.path };
          expect(await href('link[rel="canonical"]')).toBe(shopPage.path);
          expect(await href('link[rel="alternate"][hreflang="nl"]')).toBe(paths.nl);
          expect(await href('link[rel="alternate"][hreflang="de"]')).toBe(paths.de);
          expect(await href('link[rel="alternate"][hreflang="x-default"]')).toBe(paths.nl);
        });
      }

      await page.waitForLoadState("load");
      expect(problems, `browser console ${situation}`).toEqual([]);

      // Where the project runs axe (playwright.config.ts): the small screen with and without
      // JavaScript, the large one with it.
      if (testInfo.project.metadata.axe) {
        await test.step("it meets WCAG 2.2 AA as far as axe can tell", async () => {
          await expectAccessible(page, situation);
        });
      }
    });

    test(`can skip straight to the main content with the keyboard, and switch to the same page in ${otherLanguage} @once`, async ({
      page,
      situation,
    }) => {
      await open(page, shopPage);
      await test.step("the first Tab lands on the skip link, and Enter moves to the main content", async () => {
        const main = page.locator("main");
        await expect(main, situation).toHaveCount(1);
        const mainId = await main.getAttribute("id");
        expect(mainId, "main needs an id for the skip link to point at").toBeTruthy();

        await page.keyboard.press("Tab");
        const skipLink = page.locator(":focus");
        await expect(skipLink, `the first Tab ${situation} lands on the skip link`).toHaveAttribute(
          "href",
          `#${mainId}`,
        );
        await expect(skipLink, `the focused skip link is seen ${situation}`).toBeInViewport();

        await page.keyboard.press("Enter");
        await expect(main, `focus moves to the main content ${situation}`).toBeFocused();
      });

      await test.step(`the language switcher leads to the same page in ${otherLanguage}`, async () => {
        // From the top of the page again: with JavaScript the header hides while the page is
        // scrolled down, as it is now at the main content.
        await open(page, shopPage);
        await openSiteMenu(page);
        const switcher = page.locator("header nav.language-switcher");
        await expect(switcher.locator('[aria-current="true"]'), situation).toHaveAttribute(
          "lang",
          shopPage.lang,
        );
        const link = switcher.locator(`a[hreflang="${shopPage.other.lang}"]`);
        await expect(link, situation).toHaveCount(1);

        await link.click();
        await expect(page, situation).toHaveURL((url) => url.pathname + url.search === shopPage.other.path);
        await expect(page.locator("html"), situation).toHaveAttribute("lang", shopPage.other.lang);
      });
    });
  });
}

test.describe("The shop's security headers", () => {
  test("only allow scripts from the shop itself, never inline scripts", async ({ request }) => {
    for (const shopPage of pages) {
      const response = await request.get(shopPage.path);
      expect(response.status(), shopPage.path).toBe(shopPage.status);
      const policy = response.headers()["content-security-policy"];
      expect(policy, `Content-Security-Policy on ${shopPage.path}`).toBeTruthy();
      const directives = new Map(
        (policy ?? "")
          .split(";")
          .map((directive) => directive.trim().split(/\s+/))
          .filter((tokens) => tokens[0])
          .map((tokens) => [(tokens[0] ?? "").toLowerCase(), tokens.slice(1)]),
      );
      const scriptSrc = directives.get("script-src");
      expect(scriptSrc, `script-src on ${shopPage.path}: ${policy}`).toContain("'self'");
      expect(scriptSrc, `script-src on ${shopPage.path}: ${policy}`).not.toContain("'unsafe-inline'");
    }
  });
});
