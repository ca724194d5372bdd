// `npm run bench:navigation`: the shop's navigations in Chromium, driven through the tab target
// (scripts/cdp-pipe.ts, so prerendering and the back/forward cache work as for a shopper), on a
// fast and a throttled profile, with and without the speculation rules. Prints a markdown table
// for docs/performance.md. Runs the shop itself (production build, test payments, a fresh data folder).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Arrival,
  arrival,
  type CdpSession,
  click,
  evaluate,
  hover,
  launchPipeBrowser,
  waitFor,
} from "./cdp-pipe.ts";
import { findChromium } from "./find-chromium.mjs";

const runs = Number(process.env.BENCH_RUNS ?? 3);
const profiles = {
  fast: undefined,
  // A mid-range phone on a slow 4G connection, as Lighthouse's mobile profile.
  throttled: {
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
    cpu: 4,
  },
} as const;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startShop(): Promise<{ origin: string; child: ChildProcess; dataDir: string }> {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "ignore" });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), "shop-bench-nav-"));
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      PAYMENT_PROVIDER: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      COOKIE_SECRET: "bench-cookie-secret-that-is-long-enough-0123456789",
      LOG_LEVEL: "warn",
      CART_RATE_LIMIT: "10000",
      CART_CHANGE_RATE_LIMIT: "10000",
      ANALYTICS_RATE_LIMIT: "10000",
    },
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { origin, child, dataDir };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the shop did not start");
}

async function applyProfile(page: CdpSession, name: keyof typeof profiles, rules: boolean) {
  const profile = profiles[name];
  await page.send("Network.enable");
  await page.send("Network.setCacheDisabled", { cacheDisabled: false });
  await page.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: profile?.latency ?? 0,
    downloadThroughput: profile?.downloadThroughput ?? -1,
    uploadThroughput: profile?.uploadThroughput ?? -1,
  });
  await page.send("Emulation.setCPUThrottlingRate", { rate: profile?.cpu ?? 1 });
  // Without the rules: their file is refused, as on a shop that sends none.
  await page.send("Network.setBlockedURLs", { urls: rules ? [] : ["*speculation-rules.json*"] });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Hover a link as long as a shopper reading it would (600 ms), click, and measure the page it opens. */
async function navigate(page: CdpSession, selector: string): Promise<Arrival & { clickToPaint: number }> {
  const target = await evaluate<string>(
    page,
    `new URL(document.querySelector(${JSON.stringify(selector)}).href).pathname`,
  );
  await hover(page, selector);
  await new Promise((resolve) => setTimeout(resolve, 600));
  const clickedAt = await evaluate<number>(page, "performance.timeOrigin + performance.now()");
  await click(page, selector);
  await waitFor(
    page,
    `${target} opened and loaded`,
    `location.pathname === ${JSON.stringify(target)} && document.readyState === "complete"`,
    30_000,
  );
  const shown = await arrival(page);
  return { ...shown, clickToPaint: shown.firstPaintEpoch - clickedAt };
}

async function main() {
  const chromium = findChromium() ?? "/usr/bin/chromium";
  const shop = await startShop();
  const rows: string[] = [];
  const bfcache: string[] = [];
  try {
    for (const profileName of Object.keys(profiles) as Array<keyof typeof profiles>) {
      for (const rules of [true, false]) {
        const results: Record<string, Array<Arrival & { clickToPaint: number }>> = {};
        const record = (navigation: string, result: Arrival & { clickToPaint: number }) => {
          results[navigation] = [...(results[navigation] ?? []), result];
        };
        let restored = 0;
        let backs = 0;
        for (let run = 0; run < runs; run++) {
          const browser = await launchPipeBrowser(chromium);
          try {
            const page = await browser.newPage();
            await page.send("Emulation.setDeviceMetricsOverride", {
              width: 375,
              height: 667,
              deviceScaleFactor: 2,
              mobile: true,
            });
            await applyProfile(page, profileName, rules);
            await page.send("Page.navigate", { url: `${shop.origin}/` });
            await waitFor(page, "the home page loaded", `document.readyState === "complete"`, 30_000);
            const home = await arrival(page);
            record("home (load)", { ...home, clickToPaint: Number.NaN });
            await evaluate(page, "window.__mark = 'home'");
            // The category by the header's menu, as on a phone.
            await click(page, "summary.site-menu__button");
            record("home → category", await navigate(page, '.site-nav a[href="/assortiment/fotoboeken"]'));
            await evaluate(page, "window.__mark = 'category'");
            record("category → product", await navigate(page, "a.product-card__link"));
            for (const expected of ["category", "home"]) {
              await evaluate(page, "history.back()");
              await waitFor(
                page,
                `Back to the ${expected} page`,
                `document.readyState === "complete" && document.querySelector("h1")`,
                30_000,
              );
              backs++;
              if ((await evaluate<string | undefined>(page, "window.__mark")) === expected) restored++;
            }
          } finally {
            await browser.close();
          }
        }
        for (const [navigation, list] of Object.entries(results)) {
          const prerendered = list.filter((r) => r.activationStart > 0).length;
          rows.push(
            `| ${profileName} | ${rules ? "on" : "off"} | ${navigation} | ${Math.round(median(list.map((r) => r.lcpFromActivation)))} | ${
              Number.isNaN(list[0]?.clickToPaint ?? Number.NaN)
                ? "–"
                : Math.round(median(list.map((r) => r.clickToPaint)))
            } | ${prerendered}/${list.length} |`,
          );
        }
        bfcache.push(`| ${profileName} | ${rules ? "on" : "off"} | ${restored}/${backs} |`);
      }
    }
    // The header's height, with JavaScript and without.
    const heights: string[] = [];
    const browser = await launchPipeBrowser(chromium);
    try {
      for (const js of [true, false]) {
        for (const width of [375, 600]) {
          const page = await browser.newPage();
          await page.send("Emulation.setScriptExecutionDisabled", { value: !js });
          await page.send("Emulation.setDeviceMetricsOverride", {
            width,
            height: 667,
            deviceScaleFactor: 1,
            mobile: width < 480,
          });
          await page.send("Page.navigate", {
            url: `${shop.origin}/assortiment/fotoboeken/exclusief-fotoboek`,
          });
          await waitFor(page, "the product page loaded", `document.readyState === "complete"`, 30_000);
          const m = await evaluate<{ header: number; title: number; price: number }>(
            page,
            `({ header: document.querySelector(".site-header").getBoundingClientRect().height,
                title: document.querySelector("#product-title").getBoundingClientRect().bottom,
                price: document.querySelector(".product__offer [data-product-price]").getBoundingClientRect().bottom })`,
          );
          heights.push(
            `| ${width} | ${js ? "on" : "off"} | ${m.header} | ${Math.round(m.title)} | ${Math.round(m.price)} |`,
          );
        }
      }
    } finally {
      await browser.close();
    }
    console.log(
      `Navigations at 375 x 667, median of ${runs} runs (ms; LCP counted from activation, as web-vitals does):\n`,
    );
    console.log(
      "| profile | rules | navigation | LCP | click → first paint | prerendered |\n|---|---|---|---|---|---|",
    );
    console.log(rows.join("\n"));
    console.log("\nBack/forward cache, home → category → product → Back → Back:\n");
    console.log("| profile | rules | restored from the cache |\n|---|---|---|");
    console.log(bfcache.join("\n"));
    console.log(
      "\nThe product page's header, name and price (px from the top; the test shop's banner above the header included):\n",
    );
    console.log("| width | JS | header height | name ends | price ends |\n|---|---|---|---|---|");
    console.log(heights.join("\n"));
  } finally {
    shop.child.kill("SIGTERM");
    await new Promise((resolve) => shop.child.once("exit", resolve));
    rmSync(shop.dataDir, { recursive: true, force: true });
  }
}

await main();
