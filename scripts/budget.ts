// `npm run budget`: builds for production and prints, per page, the JS and CSS (gzip) it loads
// at first and at most; exits non-zero when a page is over its budget.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { Window } from "happy-dom";
import { registry } from "../islands/registry.ts";
import { buildApp } from "../server/app.ts";
import { readConfig } from "../server/config.ts";
import { loadCatalogue } from "../server/domain/catalogue.ts";
import { openDatabase } from "../server/store/database.ts";
import { migrateToLatest } from "../server/store/migrate.ts";
import { photoProjectRepository } from "../server/store/photo-project-repository.ts";
import { cleanOutdir, esbuildOptions, root, writeManifest } from "./build-config.mjs";

const kB = 1000;
/**
 * No figure was set for the subscription page. Measured: React 69 kB + react-aria's shared core 24.6 kB + Tabs 11.6 kB
 * + Dialog/Modal with react-query 20.5 kB + the form's validation and strength meter ≈ 142 kB; 145.0 kB measured
 * 2026-12-02. Every page's own part then grew by 2.0 kB (5.4 -> 7.4 kB: the header's drawer 0.9 kB, the view
 * transitions' naming in boot, the view beacon, the badge's refresh after Back; ADR 0095, 0098): 147.0 kB.
 */
const subscriptionJsMax = 148 * kB;
/** Budgets in gzip bytes. */
const budgets = {
  /** boot plus the behaviours and islands that every page loads */
  everyPageJs: 8 * kB,
  /** all JS of a page without React islands (forms: ajax, validation, strength meter) */
  plainPageJs: 30 * kB,
  reactChunk: 70 * kB,
  /** all JS a page may load when it has a React island (one react-aria widget) */
  reactPageJs: 105 * kB,
  css: 20 * kB,
};

/**
 * Pages to measure; later screens add themselves here, with a larger jsMax where one was set for them.
 * `shopper` pages are asked for by a shopper with a filled cart and a saved address (the checkout),
 * "order" ones after that shopper placed an order, "project" ones by the shopper who made a
 * photo-book project (its page).
 */
const pages: Array<{ name: string; url: string; jsMax?: number; shopper?: "cart" | "order" | "project" }> = [
  { name: "home (nl)", url: "/" },
  { name: "home (de)", url: "/de" },
  { name: "cart contents, empty (nl)", url: "/winkelwagen/inhoud" },
  { name: "cart contents, empty (de)", url: "/einkaufswagen/inhalt" },
  { name: "cart contents, filled (nl)", url: "/winkelwagen/inhoud", shopper: "cart" },
  { name: "cart contents, filled (de)", url: "/einkaufswagen/inhalt", shopper: "cart" },
  { name: "cart address (nl)", url: "/winkelwagen/adres", shopper: "cart" },
  { name: "cart address (de)", url: "/einkaufswagen/adresse", shopper: "cart" },
  { name: "cart overview (nl)", url: "/winkelwagen/overzicht", shopper: "cart" },
  { name: "cart overview (de)", url: "/einkaufswagen/uebersicht", shopper: "cart" },
  { name: "order confirmation (nl)", url: "/bestelling/", shopper: "order" },
  // Every island at once, for content editors (off in production): the heaviest page by design.
  // It grows with each hook (support search, the add-to-cart bar and the full viewer took it
  // to 172.5 kB); its figure guards against a runaway, not the shoppers' pages.
  { name: "pattern library", url: "/patroonbibliotheek", jsMax: 180 * kB },
  { name: "category (nl)", url: "/assortiment/fotoboeken" },
  // The product page may load 125 kB in all; the viewer and carousel load only near the viewport.
  { name: "product page (nl)", url: "/assortiment/fotoboeken/exclusief-fotoboek", jsMax: 125 * kB },
  { name: "product page (de)", url: "/sortiment/fotobuecher/exklusives-fotobuch", jsMax: 125 * kB },
  // The support area. Only the delivery-times page has a React island (react-query, no react-aria).
  { name: "customer service (nl)", url: "/klantenservice" },
  { name: "customer service (de)", url: "/kundenservice" },
  { name: "FAQ question (nl)", url: "/klantenservice/faq/levering/feestdagen" },
  { name: "FAQ topic (de)", url: "/kundenservice/faq/lieferung" },
  { name: "contact form (nl)", url: "/klantenservice/contact" },
  { name: "contact form (de)", url: "/kundenservice/kontakt" },
  { name: "delivery times (nl)", url: "/klantenservice/levertijden" },
  { name: "delivery times (de)", url: "/kundenservice/lieferzeiten" },
  { name: "support search (nl)", url: "/klantenservice/zoeken?q=fotoboek" },
  { name: "support search (de)", url: "/kundenservice/suche?q=Rechnung" },
  // The subscription page has two react-aria widgets (Tabs, and Dialog/Modal with
  // react-query for its fragments) besides the sign-up form's validation and strength meter.
  { name: "subscription (nl)", url: "/abonnement", jsMax: subscriptionJsMax },
  { name: "subscription (de)", url: "/abo", jsMax: subscriptionJsMax },
  { name: "subscription explanation (nl)", url: "/abonnement/uitleg/opzeggen" },
  { name: "photo editor start (nl)", url: "/fotoboek-maken" },
  {
    name: "photo editor start, a book chosen (nl)",
    url: "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30",
  },
  { name: "photo editor start, a book chosen (de)", url: "/fotobuch-gestalten?fotobuch=exklusives-fotobuch" },
  { name: "photo book project (nl)", url: "/fotoboek-maken/project/", shopper: "project" },
];

process.chdir(root);
cleanOutdir();
const result = await esbuild.build(esbuildOptions({ production: true }));
writeManifest(result.metafile);
const outputs = result.metafile.outputs;

const gzipSize = new Map<string, number>();
const sizeOf = (file: string) => {
  let size = gzipSize.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(resolve(root, file)), { level: 9 }).length;
    gzipSize.set(file, size);
  }
  return size;
};
const urlToFile = (url: string) => url.replace(/^\//, "");

/** A file and everything it imports statically: what loads before its code runs. */
function staticClosure(file: string, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const imp of outputs[file]?.imports ?? []) {
    if (imp.kind === "import-statement" && !imp.external) staticClosure(imp.path, into);
  }
  return into;
}

const chunkFor = new Map<string, string>();
for (const [file, output] of Object.entries(outputs)) {
  if (output.entryPoint && file.endsWith(".js")) chunkFor.set(output.entryPoint, file);
}
/** Registry convention: hook "name" lives in islands/<name>/<name>.ts(x). */
function hookChunk(name: string): string {
  const file = chunkFor.get(`islands/${name}/${name}.ts`) ?? chunkFor.get(`islands/${name}/${name}.tsx`);
  if (!file) throw new Error(`no chunk for hook "${name}": expected islands/${name}/${name}.ts(x)`);
  return file;
}
const reactChunks = Object.entries(outputs)
  .filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes("node_modules/react-dom/")))
  .map(([file]) => file);

const config = readConfig({
  ...process.env,
  PATTERN_LIBRARY: "true",
  LOG_LEVEL: "silent",
  COOKIE_SECRET: "b".repeat(32),
});
const database = openDatabase("sqlite::memory:");
await migrateToLatest(database);
const app = await buildApp({
  config,
  catalogue: loadCatalogue(config.cataloguePath),
  database,
  logger: false,
});

/**
 * A shopper as the checkout sees one: a cart with a photo book, prints and a canvas and a
 * saved address; and the same shopper after placing the order (its confirmation's address).
 */
async function checkoutShopper(): Promise<{ cookie: string; confirmation: string }> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  let token = "";
  const ask = async (url: string, form?: Record<string, string>) => {
    const res = await app.inject({
      url,
      method: form ? "POST" : "GET",
      headers: {
        cookie: cookie(),
        // Posts as a browser sends them from the shop's own page (form-protection.ts).
        ...(form
          ? { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" }
          : {}),
      },
      ...(form ? { payload: new URLSearchParams({ _csrf: token, ...form }).toString() } : {}),
    });
    for (const c of res.cookies) jar.set(c.name, c.value);
    token = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? token;
    if (res.statusCode >= 400) throw new Error(`checkout shopper: ${url} answered ${res.statusCode}`);
    return res;
  };
  const field = (html: string, name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  const fillCart = async () => {
    for (const line of [
      { product: "exclusive-photobook", orientation: "landscape", size: "30x21", quantity: "1" },
      { product: "classic-prints", orientation: "portrait", size: "10x15", quantity: "24" },
      { product: "canvas", orientation: "square", size: "50x50", quantity: "1" },
    ]) {
      await ask("/winkelwagen/inhoud", line);
    }
    await ask("/winkelwagen/adres", {
      name: "Anna de Vries",
      street: "Dorpsstraat 12",
      postcode: "1234 AB",
      city: "Utrecht",
      country: "NL",
      email: "anna@example.nl",
      phone: "",
    });
  };
  await ask("/assortiment/fotoboeken/exclusief-fotoboek");
  await fillCart();
  const overview = await ask("/winkelwagen/overzicht");
  const placed = await ask("/winkelwagen/overzicht", {
    orderKey: field(overview.body, "orderKey"),
    fingerprint: field(overview.body, "fingerprint"),
  });
  // Placing the order emptied the cart: fill it again for the cart pages.
  await fillCart();
  return { cookie: cookie(), confirmation: placed.headers.location ?? "" };
}
const checkout = await checkoutShopper();

const total = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + sizeOf(f), 0);
const rows: string[][] = [];
const failures: string[] = [];
/** Files each page loads, to find what every page shares. */
const basePerPage: Set<string>[] = [];

// A project page belongs to its shopper: one made here, visited with that shopper's cookie.
const shopperId = "budgetbudgetbudgetbudg";
const project = await photoProjectRepository(database.db).create(shopperId, {
  productId: "exclusive-photobook",
  orientation: "portrait",
  sizeId: "21x30",
});

for (const page of pages) {
  const res =
    page.shopper === "project"
      ? await app.inject({
          url: `${page.url}${project.id}`,
          headers: { cookie: `shopper=${app.signCookie(shopperId)}` },
        })
      : await app.inject({
          url: page.shopper === "order" ? checkout.confirmation : page.url,
          headers: page.shopper ? { cookie: checkout.cookie } : {},
        });
  if (res.statusCode !== 200) {
    failures.push(`${page.name}: ${page.url} answered ${res.statusCode}`);
    continue;
  }
  const window = new Window({ url: "http://localhost/" });
  window.document.write(res.body);
  const doc = window.document;
  const scripts = [...doc.querySelectorAll('script[type="module"][src]')].map((s) =>
    urlToFile(s.getAttribute("src") ?? ""),
  );
  const styles = [...doc.querySelectorAll('link[rel="stylesheet"]')].map((l) =>
    urlToFile(l.getAttribute("href") ?? ""),
  );

  const first = new Set<string>();
  for (const s of scripts) staticClosure(s, first);
  const base = new Set(first);
  const most = new Set(first);
  const used: string[] = [];
  let usesReact = false;
  for (const hook of registry) {
    const selector = hook.kind === "behaviour" ? hook.selector : `[data-island="${hook.name}"]`;
    if (!doc.querySelector(selector)) continue;
    used.push(hook.name);
    const closure = staticClosure(hookChunk(hook.name));
    for (const f of closure) most.add(f);
    if (hook.kind === "island" && hook.react) usesReact = true;
    else for (const f of closure) base.add(f);
  }
  const loadsReact = [...most].some((f) => reactChunks.includes(f));
  const jsFirst = total(first);
  basePerPage.push(base);
  const jsMost = total(most);
  const css = total(styles);
  const jsMax = page.jsMax ?? (usesReact ? budgets.reactPageJs : budgets.plainPageJs);

  const problems: string[] = [];
  if (jsMost > jsMax) problems.push(`JS at most ${jsMost} B > ${jsMax} B`);
  if (!usesReact && loadsReact) problems.push("loads React without a React island");
  if (css > budgets.css) problems.push(`CSS ${css} B > ${budgets.css} B`);
  failures.push(...problems.map((p) => `${page.name}: ${p}`));
  rows.push([
    page.name,
    (jsFirst / kB).toFixed(1),
    (jsMost / kB).toFixed(1),
    (jsMax / kB).toFixed(0),
    (css / kB).toFixed(1),
    loadsReact ? "yes" : "no",
    used.join(", ") || "-",
    problems.length ? "OVER" : "ok",
  ]);
  await window.happyDOM.close();
}
await app.close();
await database.close();

const everyPage = new Set(basePerPage[0]);
for (const files of basePerPage.slice(1)) {
  for (const file of everyPage) if (!files.has(file)) everyPage.delete(file);
}
const everyPageSize = total(everyPage);
if (everyPageSize > budgets.everyPageJs) {
  failures.push(`boot + what every page loads: ${everyPageSize} B > ${budgets.everyPageJs} B`);
}
const reactSize = total(reactChunks);
if (reactChunks.length > 0 && reactSize > budgets.reactChunk) {
  failures.push(`React runtime chunk ${reactSize} B > ${budgets.reactChunk} B`);
}

const header = ["page", "JS first kB", "JS at most kB", "JS budget kB", "CSS kB", "React", "hooks", "status"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const row of rows) console.log(line(row));
console.log(
  `\nBoot + behaviours every page loads: ${(everyPageSize / kB).toFixed(1)} kB gzip (budget ${budgets.everyPageJs / kB} kB)`,
);
console.log(
  `React runtime chunk: ${reactChunks.length ? `${(reactSize / kB).toFixed(1)} kB gzip (budget ${budgets.reactChunk / kB} kB)` : "not built (no React island is registered yet)"}`,
);
console.log(
  `Budgets: every page ${budgets.everyPageJs / kB} kB, page without React ${budgets.plainPageJs / kB} kB, page with a react-aria widget ${budgets.reactPageJs / kB} kB, CSS ${budgets.css / kB} kB (all gzip -9).`,
);
if (failures.length > 0) {
  console.error(`\nOver budget:\n- ${failures.join("\n- ")}`);
  process.exit(1);
}
console.log("\nAll pages within budget.");
