import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  arrival,
  click,
  evaluate,
  hover,
  launchPipeBrowser,
  type PipeBrowser,
  waitFor,
} from "../../scripts/cdp-pipe.ts";
import { watchPreloading } from "../../scripts/cdp-preload.ts";
import { findChromium } from "../../scripts/find-chromium.mjs";
import { expect, test } from "./fixtures.ts";

/** Every request that reached the shop, and whether the browser sent it ahead (Sec-Purpose). */
interface Logged {
  path: string;
  purpose: string | undefined;
}

/**
 * The shop behind a recording proxy: the server's own log of requests, with the header that
 * tells a speculative fetch from a navigation. Chromium is driven through the tab target
 * (scripts/cdp-pipe.ts), where it prerenders as for a shopper; Playwright's own attachment
 * would turn prerendering off.
 */
let proxy: Server;
let origin = "";
const log: Logged[] = [];
let browser: PipeBrowser;

test.beforeAll(async ({ baseURL }) => {
  const target = new URL(baseURL ?? "");
  proxy = createServer((req, res) => {
    const purpose = req.headers["sec-purpose"];
    log.push({ path: req.url ?? "", purpose: typeof purpose === "string" ? purpose : undefined });
    const upstream = forward(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  browser = await launchPipeBrowser(findChromium() ?? "/usr/bin/chromium");
});
test.afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => proxy.close(resolve));
});

/** Links the rules must never fetch ahead, added to the real page beside its own language switch. */
const neverLinks = [
  "/uitloggen",
  "/account/overal-uitloggen",
  "/testbetaling/tr_journey",
  "/account/bevestigen/journey-token",
  "/wachtwoord-herstellen/journey-token",
  "/bestelling/FH-100001?code=journey-secret",
  "/klantenservice/contact?token=journey",
];

/** An address the rules allow, in the box beside the "never" links: Chromium's candidate list shows it once it has read the box. */
const allowedInBox = "/klantenservice/faq/overzicht?toegestaan";

test.describe("Speculation rules @js-only @once", () => {
  test("a hovered product link on a category page is prerendered and shown at once; nothing under 'never' is fetched ahead", async () => {
    test.setTimeout(60_000);
    const page = await browser.newPage();
    // What Chromium reports about its candidates, prefetches and prerenders, with its reasons.
    const preload = await watchPreloading(page);
    // The wide layout: the language switch is in the header's bar, where a pointer can rest on it.
    await page.send("Emulation.setDeviceMetricsOverride", {
      width: 1280,
      height: 800,
      deviceScaleFactor: 1,
      mobile: false,
    });
    await page.send("Page.navigate", { url: `${origin}/assortiment/fotoboeken` });
    await waitFor(
      page,
      "the category page enhanced",
      `document.documentElement.dataset.enhanced === "ready"`,
    );
    // The product link first: a shopper's hover, prerendered while the pointer rests on it.
    await hover(page, "a.product-card__link");
    const product = await evaluate<string>(
      page,
      `new URL(document.querySelector("a.product-card__link").href).pathname`,
    );
    // Chromium's own word that the prerender is done (or why it dropped it), not a guess at how long it takes.
    await preload.prerenderReaches(`${origin}${product}`, "Ready");
    // Chromium fetches the page itself as a prefetch and prerenders from it (its images say prefetch;prerender).
    expect(
      log.some((l) => l.path === product && l.purpose?.includes("prefetch")),
      `the product page fetched ahead: ${JSON.stringify(log)}`,
    ).toBe(true);

    await evaluate(
      page,
      `(() => {
        const box = document.createElement("div");
        box.id = "never";
        for (const href of ${JSON.stringify(neverLinks)}) {
          const a = document.createElement("a"); a.href = href; a.textContent = href; a.style.display = "block"; box.append(a);
        }
        // An address no other link on the page has: a candidate is its address, from any link to it.
        const marked = document.createElement("a"); marked.href = "/klantenservice/faq/overzicht?gemarkeerd";
        marked.dataset.noPrefetch = ""; marked.textContent = "marked"; marked.style.display = "block"; box.append(marked);
        const allowed = document.createElement("a"); allowed.href = ${JSON.stringify(allowedInBox)};
        allowed.textContent = "allowed"; allowed.style.display = "block"; box.append(allowed);
        document.querySelector("main").prepend(box);
      })()`,
    );
    // Once the box's allowed link is a candidate, Chromium has read every link in it: none
    // of the others may be a candidate at all, for prefetch or prerender.
    await preload.candidatesMatching("the box's allowed link among Chromium's candidates", (list) =>
      list.some((c) => c.url === `${origin}${allowedInBox}`),
    );
    const never = [...neverLinks, "/klantenservice/faq/overzicht?gemarkeerd", "/sortiment/fotobuecher"];
    const candidates = preload.candidates().map((c) => new URL(c.url).pathname + new URL(c.url).search);
    for (const path of never) expect(candidates, `${path} is a candidate`).not.toContain(path);

    // And a shopper resting on each "never" link, longer than moderate eagerness waits (200 ms),
    // makes no request for it.
    const neverSelectors = [
      ...neverLinks.map((href) => `#never a[href="${href}"]`),
      "#never a[data-no-prefetch]",
      ".language-switcher a[hreflang]",
    ];
    for (const selector of neverSelectors) {
      await hover(page, selector);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    // A link that may be prefetched, so the watch is known to see speculative requests at all.
    await hover(page, '.site-nav a[href="/klantenservice"]');
    await preload.prefetchReady(`${origin}/klantenservice`);
    expect(
      log.some((l) => l.path === "/klantenservice" && l.purpose?.includes("prefetch")),
      `/klantenservice fetched ahead: ${JSON.stringify(log)}`,
    ).toBe(true);

    // Still ready after all that hovering: if Chromium dropped it, this names its reason.
    await preload.prerenderReaches(`${origin}${product}`, "Ready", 1_000);
    await click(page, "a.product-card__link");
    await waitFor(
      page,
      "the prerendered product page shown",
      `location.pathname === ${JSON.stringify(product)} && document.readyState === "complete"`,
    );
    const shown = await arrival(page);
    expect(shown.activationStart, "the product page was prerendered and activated").toBeGreaterThan(0);
    // A measure, not a test (no timed assertions): LCP from activation, as web-vitals reports it.
    test.info().annotations.push({
      type: "LCP from activation (ms)",
      description: String(Math.round(shown.lcpFromActivation)),
    });

    const fetchedAhead = log.filter((l) => l.purpose?.includes("prefetch")).map((l) => l.path);
    for (const path of never) expect(fetchedAhead, `${path} was fetched ahead`).not.toContain(path);
  });
});
