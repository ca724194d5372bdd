// Throughput of rendered pages next to a bare Fastify route on the same machine.
// Usage: npm run bench [-- --duration 5] [-- --connections 50]
//
// Builds the assets, starts the production server and a bare Fastify server as child
// processes, then loads one target after another (scripts/load-generator.ts). The ratio to
// the bare route, measured in slices alternating with the target's own, is the number to
// watch; absolute req/s depend on the machine. Next to it stands the CPU the serving
// process used per answer and how busy it was: a server below about 90% busy means the
// load generator, not the server, ran out (on Linux only).

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import sharp from "sharp";
import { buildCrowd, type CrowdShopper } from "./bench-crowd.ts";
import { type BenchShopper, benchShopper } from "./bench-shopper.ts";
import { navigationHeaders } from "./browser-headers.ts";
import { drawnAtRandom, drawnByWeight, eachOnce, seededRandom } from "./crowd-draw.ts";
import { combined, type LoadResult, load, requestBytes } from "./load-generator.ts";

/** A camera-sized photo for the bench shopper's photo book, made on the spot. */
const benchPhoto = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#3a7bd5" } })
    .jpeg()
    .toBuffer();

type PagePath = string | ((shopper: BenchShopper) => string);

/** Every page a buying shopper reaches, guest or signed in. */
const buyerPages: ReadonlyArray<readonly [string, PagePath]> = [
  ["home", "/"],
  ["category", "/assortiment/fotoboeken"],
  ["product", "/assortiment/fotoboeken/exclusief-fotoboek"],
  ["cart contents", "/winkelwagen/inhoud"],
  ["cart address", "/winkelwagen/adres"],
  ["cart overview", "/winkelwagen/overzicht"],
  ["order page", (s) => s.orderPath],
  ["delivery times", "/klantenservice/levertijden"],
  ["customer service", "/klantenservice"],
  ["FAQ question", "/klantenservice/faq/levering/feestdagen"],
  ["contact form", "/klantenservice/contact"],
  ["subscription", "/abonnement"],
  ["photo editor start", "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30"],
  ["photo book", (s) => s.projectPath],
  ["search results", "/klantenservice/zoeken?q=fotoboek"],
];

/** ... and, signed in, the account's own pages. */
const accountPages: ReadonlyArray<readonly [string, PagePath]> = [
  ["account", "/account"],
  ["account orders", "/account/bestellingen"],
  ["account photos", "/account/fotos"],
  ["account subscription", "/account/abonnement"],
  ["account addresses", "/account/adressen"],
  ["account settings", "/account/gegevens"],
  ["account privacy", "/account/privacy"],
];

/**
 * The pages to measure; each screen adds itself here as it is built. Shoppers
 * without a cart get shared pages from the page cache; "with a cart" sends a signed cart
 * cookie, so the page is rendered for that shopper on every request.
 */
const pages: {
  name: string;
  /** The page's address; a function for the shopper's own pages (their order, their photo book). */
  path: PagePath;
  withCart?: boolean;
  withShopper?: boolean;
  filledCart?: boolean;
  /** As one of the bench's shoppers, signed in or a guest: a cart of two lines with an address, an order, a photo book. */
  shopper?: "signed-in" | "guest";
  /** A page's own goal where it has one, as a share of the bare route */
  goal?: number;
}[] = [
  { name: "nl home", path: "/" },
  { name: "de home", path: "/de" },
  { name: "nl home, with a cart", path: "/", withCart: true },
  { name: "nl cart", path: "/winkelwagen/inhoud" },
  { name: "nl cart, with a cart", path: "/winkelwagen/inhoud", withCart: true },
  // A shopper's real cart: three lines, totals, tips carousel, a form per line. Its goal is 1/4.
  { name: "nl cart, filled", path: "/winkelwagen/inhoud", filledCart: true, goal: 1 / 4 },
  { name: "de cart, filled", path: "/einkaufswagen/inhalt", filledCart: true, goal: 1 / 4 },
  { name: "nl category", path: "/assortiment/fotoboeken" },
  { name: "nl product", path: "/assortiment/fotoboeken/exclusief-fotoboek" },
  {
    name: "nl product, other option",
    path: "/assortiment/fotoboeken/exclusief-fotoboek?orientatie=staand&formaat=21x30",
  },
  { name: "de product", path: "/sortiment/fotobuecher/exklusives-fotobuch" },
  { name: "nl product, with a cart", path: "/assortiment/fotoboeken/exclusief-fotoboek", withCart: true },
  // A visitor without cookies shares one ready answer (form-protection.ts); a shopper with a
  // filled cart gets the page with their own count and form token.
  {
    name: "nl product, with a filled cart",
    path: "/assortiment/fotoboeken/exclusief-fotoboek",
    filledCart: true,
  },
  { name: "nl customer service", path: "/klantenservice" },
  { name: "nl FAQ question", path: "/klantenservice/faq/levering/feestdagen" },
  { name: "nl contact form", path: "/klantenservice/contact" },
  // Computed for every request (the times change at the cut-off), never from the page cache.
  { name: "nl delivery times", path: "/klantenservice/levertijden" },
  { name: "de delivery times (JSON)", path: "/api/lieferzeiten" },
  // Subscription and photo editor. A shopper who has uploaded photos gets the subscription page made for them;
  // everyone else shares one copy.
  { name: "nl subscription", path: "/abonnement" },
  { name: "de subscription", path: "/abo" },
  { name: "nl subscription, a shopper's own", path: "/abonnement", withShopper: true },
  { name: "nl subscription explanation", path: "/abonnement/uitleg/opzeggen" },
  { name: "nl photo editor start", path: "/fotoboek-maken" },
  {
    name: "nl photo editor start, format carried over",
    path: "/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30",
  },
  { name: "nl search results", path: "/klantenservice/zoeken?q=fotoboek" },
  { name: "nl sign in", path: "/inloggen" },
  { name: "nl privacy statement", path: "/privacy" },
  // The shoppers who buy: with a cart and an address, an order and a photo book, as a guest
  // and signed in. Every page they reach should keep up as well as a visitor's.
  ...buyerPages.map(([what, path]) => ({
    name: `nl ${what}, guest with a cart`,
    path,
    shopper: "guest" as const,
  })),
  ...[...buyerPages, ...accountPages].map(([what, path]) => ({
    name: `nl ${what}, signed-in shopper`,
    path,
    shopper: "signed-in" as const,
  })),
];

/** A rendered page should manage at least this share of the bare route's requests per second. */
const goalRatio = 1 / 3;
/** ... and answer 99 of 100 requests within this, at 50 connections. */
const goalP99Ms = 25;
const warmupSeconds = 2;
/** A target is measured in slices this long, `--duration` of them, each next to one of the bare route's */
const sliceSeconds = 1;
/** ... each after this long under load, so that opening the connections is not measured */
const sliceWarmupSeconds = 0.25;

const cookieSignature = createRequire(import.meta.url)("@fastify/cookie") as {
  sign(value: string, secret: string): string;
};

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

interface BenchOptions {
  duration: number;
  connections: number;
  only: string[];
  cpuProf?: string;
  /** The bench before the crowd: one shopper's cookies on every request, every page variant. */
  oneShopper: boolean;
  /** Only the sale hour: the crowd's pages in realistic shares, as one figure. */
  mix: boolean;
  /** Only the cold column (each shopper once): quick before/after figures, and a profile of just that. */
  coldOnly: boolean;
  database: "sqlite" | "postgres";
  /** Shoppers in the crowd. */
  crowd: number;
}

function readArgs(argv: string[]): BenchOptions {
  const options: BenchOptions = {
    duration: 5,
    connections: 50,
    only: [],
    oneShopper: false,
    mix: false,
    coldOnly: false,
    database: process.env.BENCH_DATABASE === "postgres" ? "postgres" : "sqlite",
    crowd: 2500,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.split("=", 2);
    if (flag === "--one-shopper" || flag === "--mix" || flag === "--cold") {
      options[flag === "--mix" ? "mix" : flag === "--cold" ? "coldOnly" : "oneShopper"] = true;
      continue;
    }
    const raw = inline ?? argv[++i];
    if (flag === "--only") {
      // Repeatable: each value picks the pages whose name contains it.
      if (!raw) throw new Error("--only needs part of a page's name, e.g. --only 'nl product'");
      options.only.push(raw);
      continue;
    }
    if (flag === "--cpu-prof") {
      // The shop server writes a V8 CPU profile into this folder when the bench stops it.
      if (!raw) throw new Error("--cpu-prof needs a folder for the profile");
      options.cpuProf = resolve(raw);
      continue;
    }
    if (flag === "--database") {
      if (raw !== "sqlite" && raw !== "postgres") throw new Error("--database is sqlite or postgres");
      options.database = raw;
      continue;
    }
    if (flag !== "--duration" && flag !== "--connections" && flag !== "--crowd") {
      throw new Error(
        `unknown argument ${arg}; use --duration N, --connections N, --crowd N, --only NAME, --mix, --cold, --one-shopper, --database sqlite|postgres and/or --cpu-prof DIR`,
      );
    }
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${flag} needs a whole number >= 1, got ${raw}`);
    options[flag === "--duration" ? "duration" : flag === "--crowd" ? "crowd" : "connections"] = value;
  }
  return options;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject()));
    });
  });
}

const children: ChildProcess[] = [];
let dataDir: string | undefined;
/** A PostgreSQL database made for this run, dropped when it ends. */
let dropDatabase: (() => Promise<void>) | undefined;

function start(name: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] });
  child.once("exit", (code, signal) => {
    if (!stopping) {
      console.error(`${name} stopped unexpectedly (${signal ?? `exit code ${code}`})`);
      void stopAll().then(() => process.exit(1));
    }
  });
  children.push(child);
  return child;
}

let stopping = false;
async function stopAll(): Promise<void> {
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
          child.once("exit", () => {
            clearTimeout(force);
            done();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await dropDatabase?.().catch((err: unknown) =>
    console.error(`dropping the bench database: ${String(err)}`),
  );
  dropDatabase = undefined;
}

/**
 * A database of the run's own on the PostgreSQL server of BENCH_DATABASE_URL (or
 * TEST_DATABASE_URL): made empty now, dropped when the bench ends.
 */
async function freshPostgresDatabase(): Promise<string> {
  const server = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!server)
    throw new Error("--database postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL (postgres://…)");
  const name = `photo_shop_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  dropDatabase = async () => {
    const again = new pg.Client({ connectionString: server });
    await again.connect();
    try {
      await again.query(`drop database if exists ${name} with (force)`);
    } finally {
      await again.end();
    }
  };
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the servers`);
    void stopAll().then(() => process.exit(130));
  });
}

async function waitUntilReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((wait) => setTimeout(wait, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

// Besides "hello", the bare server can answer with any body the bench gives it (PUT /body):
// the shop's own gzip bytes sent with no work at all, which shows how much of a page's
// cost is the transfer (on one machine the load generator pays for every byte it reads).
const bareServer = `
const fastify = require("fastify")({ logger: false });
let body = Buffer.alloc(0);
fastify.addContentTypeParser("application/octet-stream", { parseAs: "buffer" }, (_req, raw, done) => done(null, raw));
fastify.get("/", async () => "hello from a bare Fastify route");
fastify.put("/body", async (request) => { body = request.body; return "ok"; });
fastify.get("/body", async (_request, reply) =>
  reply.header("content-encoding", "gzip").type("text/html; charset=utf-8").send(body));
fastify.listen({ port: Number(process.env.PORT), host: "127.0.0.1" }).catch((err) => {
  console.error(err.message);
  process.exit(1);
});
`;

/** A page's body exactly as a browser receives it (gzip), unlike fetch(), which decodes it. */
function gzipBytes(url: string): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    get(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        response.headers["content-encoding"] === "gzip"
          ? resolveBody(Buffer.concat(chunks))
          : reject(new Error(`${url} answered without gzip`)),
      );
    }).once("error", reject);
  });
}

function statusSummary(result: LoadResult): string {
  const codes = Object.entries(result.statusCounts)
    .map(([code, count]) => `${code}×${count}`)
    .join(" ");
  return [codes || "no responses", ...(result.errors ? [`${result.errors} dropped connections`] : [])].join(
    ", ",
  );
}

/**
 * CPU seconds a process has used so far (user + system), from /proc; undefined where there
 * is no /proc, and the bench then leaves the CPU columns empty.
 */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name: state is the 1st, utime the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

function table(rows: string[][]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  // Names and status read from the left, numbers line up on the right.
  const textColumn = (column: number) => column === 0 || column === widths.length - 1;
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        textColumn(column) ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd();
  const [header, ...body] = rows;
  return [line(header ?? []), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** The crowd's share of shoppers signed in to an account of their own. */
const signedInShare = 0.4;
/** Of the crowd, the share signed in with a running subscription (a quarter of the signed-in). */
const subscriberShare = 0.1;

/** A page the crowd asks for: by path, for every shopper or for the signed-in ones only. */
interface CrowdPage {
  name: string;
  path: string;
  who: "visitor" | "crowd" | "signed-in";
}

/** Pages everyone sees the same without cookies: one row each, as a visitor. */
const visitorPages: CrowdPage[] = [
  { name: "home", path: "/", who: "visitor" },
  { name: "category", path: "/assortiment/fotoboeken", who: "visitor" },
  { name: "product", path: "/assortiment/fotoboeken/exclusief-fotoboek", who: "visitor" },
  { name: "delivery times", path: "/klantenservice/levertijden", who: "visitor" },
  { name: "customer service", path: "/klantenservice", who: "visitor" },
  { name: "FAQ question", path: "/klantenservice/faq/levering/feestdagen", who: "visitor" },
  { name: "subscription", path: "/abonnement", who: "visitor" },
  { name: "search results", path: "/klantenservice/zoeken?q=fotoboek", who: "visitor" },
];

/** The buyer's and the account's pages with one address for every shopper (bench-shopper.ts has the others). */
const crowdPages: CrowdPage[] = [
  ...buyerPages.flatMap(([name, path]) =>
    typeof path === "string" ? [{ name, path, who: "crowd" as const }] : [],
  ),
  ...accountPages.flatMap(([name, path]) =>
    typeof path === "string" ? [{ name, path, who: "signed-in" as const }] : [],
  ),
];

/**
 * A sale hour, as shares of the requests: visitors browsing and looking at products, the
 * crowd with carts on the same pages, filling and checking out, and a few on their account.
 */
const saleHour: ReadonlyArray<{ weight: number; page: CrowdPage }> = [
  { weight: 8, page: { name: "home", path: "/", who: "visitor" } },
  { weight: 4, page: { name: "home", path: "/", who: "crowd" } },
  { weight: 10, page: { name: "category", path: "/assortiment/fotoboeken", who: "visitor" } },
  { weight: 5, page: { name: "category", path: "/assortiment/fotoboeken", who: "crowd" } },
  {
    weight: 15,
    page: { name: "product", path: "/assortiment/fotoboeken/exclusief-fotoboek", who: "visitor" },
  },
  { weight: 15, page: { name: "product", path: "/assortiment/fotoboeken/exclusief-fotoboek", who: "crowd" } },
  { weight: 3, page: { name: "search", path: "/klantenservice/zoeken?q=fotoboek", who: "crowd" } },
  { weight: 3, page: { name: "FAQ", path: "/klantenservice/faq/levering/feestdagen", who: "visitor" } },
  { weight: 2, page: { name: "delivery times", path: "/klantenservice/levertijden", who: "visitor" } },
  { weight: 14, page: { name: "cart contents", path: "/winkelwagen/inhoud", who: "crowd" } },
  { weight: 8, page: { name: "cart address", path: "/winkelwagen/adres", who: "crowd" } },
  { weight: 7, page: { name: "cart overview", path: "/winkelwagen/overzicht", who: "crowd" } },
  { weight: 4, page: { name: "account", path: "/account", who: "signed-in" } },
  { weight: 2, page: { name: "account orders", path: "/account/bestellingen", who: "signed-in" } },
];

interface CrowdRow {
  page: string;
  column: string;
  result: LoadResult;
  bareRequestsPerSecond: number;
  cpuPerAnswerUs?: number;
}

/**
 * The default bench: a crowd of `--crowd` shoppers, and per page the three ways a crowd
 * asks, each next to the bare route: one shopper repeated, the crowd drawn at random, and
 * each shopper once (cold: a page made for a shopper the server never answered it for).
 * Returns whether every answer was a 2xx.
 */
async function crowdBench(run: {
  options: BenchOptions;
  shop: string;
  bare: string;
  shopPid: number | undefined;
  barePid: number | undefined;
  shopEnv: NodeJS.ProcessEnv;
}): Promise<boolean> {
  const { options, shop, bare, shopPid, barePid, shopEnv } = run;
  const { connections, duration } = options;
  const browser = navigationHeaders;
  const shopUrl = new URL(shop);
  const pick = <T extends { name: string }>(list: T[]) =>
    options.only.length > 0 ? list.filter((p) => options.only.some((part) => p.name.includes(part))) : list;

  const started = performance.now();
  const crowd = await buildCrowd({
    databaseUrl: shopEnv.DATABASE_URL ?? "",
    cookieSecret: shopEnv.COOKIE_SECRET ?? "",
    size: options.crowd,
    signedInShare,
    subscriberShare,
    passwordHash: "bench-crowd: nobody signs in with a password",
  });
  const signedIn = crowd.filter((shopper) => shopper.signedIn);
  const subscribers = crowd.filter((shopper) => shopper.subscriber).length;
  console.log(
    `built a crowd of ${crowd.length} shoppers (${signedIn.length} signed in, ${subscribers} of them subscribers) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const random = seededRandom(35);
  const requestOf = (path: string, shopper: CrowdShopper | undefined) =>
    requestBytes(new URL(path, shopUrl), shopper ? { ...browser, cookie: shopper.cookie } : browser);
  const shoppersFor = (page: CrowdPage) => (page.who === "signed-in" ? signedIn : crowd);

  /** One slice of load from `source`, with the CPU the serving process used meanwhile. */
  const slice = async (
    url: string,
    pid: number | undefined,
    source: (() => Buffer | undefined) | undefined,
    seconds: number,
    warmup: number,
  ) => {
    let cpuAtStart: number | undefined;
    let cpuAtEnd: number | undefined;
    const result = await load({
      url,
      headers: browser,
      connections,
      duration: seconds,
      warmup,
      source,
      onMeasuring: (phase) => {
        if (phase === "start") cpuAtStart = cpuSeconds(pid);
        else cpuAtEnd = cpuSeconds(pid);
      },
    });
    const cpu = cpuAtStart !== undefined && cpuAtEnd !== undefined ? cpuAtEnd - cpuAtStart : undefined;
    return { result, cpu };
  };
  const bareSlice = async () =>
    (await slice(`${bare}/`, barePid, undefined, sliceSeconds, sliceWarmupSeconds)).result;
  const cpuPerAnswer = (own: Array<{ result: LoadResult; cpu?: number }>) =>
    own.some(({ cpu }) => cpu === undefined)
      ? undefined
      : (own.reduce((sum, { cpu }) => sum + (cpu ?? 0), 0) /
          Math.max(
            1,
            own.reduce((n, { result }) => n + result.requests, 0),
          )) *
        1e6;

  /** `--duration` slices of a source made anew per slice, alternating with the bare route's (ADR 0086). */
  const inSlices = async (page: string, column: string, source: () => () => Buffer | undefined) => {
    await slice(shop, shopPid, source(), warmupSeconds, 0);
    const own: Array<{ result: LoadResult; cpu?: number }> = [];
    const bareSlices: LoadResult[] = [];
    for (let round = 0; round < duration; round++) {
      const pageFirst = round % 2 === 1;
      if (!pageFirst) bareSlices.push(await bareSlice());
      own.push(await slice(shop, shopPid, source(), sliceSeconds, sliceWarmupSeconds));
      if (pageFirst) bareSlices.push(await bareSlice());
    }
    return row(
      page,
      column,
      combined(own.map(({ result }) => result)),
      combined(bareSlices),
      cpuPerAnswer(own),
    );
  };
  /** Every shopper once, as fast as the server answers, between two slices of the bare route. */
  const cold = async (page: string, requests: Buffer[]) => {
    // The first tenth warms the JIT on this page's render path, uncounted; they are never asked again.
    const warming = Math.ceil(requests.length / 10);
    await slice(shop, shopPid, eachOnce(requests.slice(0, warming), random), 600, 0);
    requests = requests.slice(warming);
    const before = await bareSlice();
    const own = await slice(shop, shopPid, eachOnce(requests, random), 600, 0);
    const after = await bareSlice();
    return row(page, "each shopper once (cold)", own.result, combined([before, after]), cpuPerAnswer([own]));
  };
  const rows: CrowdRow[] = [];
  const row = (page: string, column: string, result: LoadResult, bareResult: LoadResult, cpu?: number) => {
    const measured: CrowdRow = {
      page,
      column,
      result,
      bareRequestsPerSecond: bareResult.requestsPerSecond,
      cpuPerAnswerUs: cpu,
    };
    rows.push(measured);
    console.log(
      `  ${page}, ${column}: ${Math.round(result.requestsPerSecond)} req/s (${ratio(measured).toFixed(3)} of bare), p99 ${result.latencyP99Ms.toFixed(1)} ms${cpu === undefined ? "" : `, ${cpu.toFixed(0)} µs CPU`}`,
    );
    return measured;
  };

  // The server's JIT and the bare route warmed before anything counts.
  await slice(`${bare}/`, barePid, undefined, warmupSeconds, 0);
  await slice(shop, shopPid, drawnAtRandom([requestOf("/", crowd[0])], random), warmupSeconds, 0);

  if (options.mix) {
    console.log(
      `a sale hour: ${saleHour.map(({ weight, page }) => `${page.name} (${page.who}) ${weight}%`).join(", ")}`,
    );
    const draw = drawnByWeight(
      saleHour.map(({ weight, page }) => ({ weight, item: page })),
      random,
    );
    const shopperOf = { crowd: drawnAtRandom(crowd, random), "signed-in": drawnAtRandom(signedIn, random) };
    await inSlices("sale hour", "mixed crowd", () => () => {
      const page = draw();
      if (!page) return undefined;
      return requestOf(page.path, page.who === "visitor" ? undefined : shopperOf[page.who]());
    });
  } else {
    console.log(
      `measuring: visitors, then per page each shopper once, the crowd at random, one shopper repeated; ${connections} connections`,
    );
    for (const page of options.coldOnly ? [] : pick(visitorPages)) {
      const request = requestOf(page.path, undefined);
      await inSlices(page.name, "visitor, no cookies", () => () => request);
    }
    for (const page of pick(crowdPages)) {
      const shoppers = shoppersFor(page);
      const requests = shoppers.map((shopper) => requestOf(page.path, shopper));
      // Cold first: the other two columns make every shopper's page known to the server.
      await cold(page.name, requests);
      if (options.coldOnly) continue;
      await inSlices(page.name, "the crowd at random", () => drawnAtRandom(requests, random));
      // A warming shopper (cold() asked them once already): their page is known to the server.
      const one = requests[0] as Buffer;
      await inSlices(page.name, "one shopper repeated", () => () => one);
    }
  }

  const ratioRows = [
    ["page", "asked by", "req/s", "vs bare", "p50 ms", "p99 ms", "kB/answer", "CPU µs/answer", "status"],
    ...rows.map((measured) => [
      measured.page,
      measured.column,
      measured.result.requestsPerSecond.toFixed(0),
      ratio(measured).toFixed(3),
      measured.result.latencyP50Ms.toFixed(1),
      measured.result.latencyP99Ms.toFixed(1),
      (measured.result.bodyBytes / 1024).toFixed(1),
      measured.cpuPerAnswerUs === undefined ? "" : measured.cpuPerAnswerUs.toFixed(0),
      statusSummary(measured.result),
    ]),
  ];
  console.log(
    `\n${options.database}, ${crowd.length} shoppers, ${connections} connections\n${table(ratioRows)}\n`,
  );
  console.log(
    `goals: cold >= ${coldGoalRatio} of bare with p99 <= ${goalP99Ms} ms and <= ${coldGoalCpuUs} µs CPU; visitors >= ${visitorGoalRatio} of bare`,
  );
  for (const measured of rows) {
    const goal = measured.column.startsWith("visitor")
      ? { ratio: visitorGoalRatio }
      : measured.column.includes("cold")
        ? { ratio: coldGoalRatio, cpu: coldGoalCpuUs }
        : undefined;
    if (!goal) continue;
    const met =
      ratio(measured) >= goal.ratio &&
      measured.result.latencyP99Ms <= goalP99Ms &&
      (goal.cpu === undefined || (measured.cpuPerAnswerUs ?? 0) <= goal.cpu);
    console.log(
      `  ${met ? "PASS " : "BELOW"} ${measured.page}, ${measured.column}: ${ratio(measured).toFixed(3)} of bare, p99 ${measured.result.latencyP99Ms.toFixed(1)} ms${measured.cpuPerAnswerUs === undefined ? "" : `, ${measured.cpuPerAnswerUs.toFixed(0)} µs`}`,
    );
  }
  const failing = rows.filter(
    ({ result }) =>
      result.errors > 0 || Object.keys(result.statusCounts).some((code) => !code.startsWith("2")),
  );
  for (const { page, column, result } of failing)
    console.error(`ERROR ${page}, ${column}: ${statusSummary(result)}`);
  return failing.length === 0;
}

const ratio = (measured: CrowdRow) =>
  measured.bareRequestsPerSecond > 0 ? measured.result.requestsPerSecond / measured.bareRequestsPerSecond : 0;
/** The goal for a crowd: a cold page at >= 0.04 of the bare route, p99 <= 25 ms, <= 0.33 ms of CPU; a visitor's page at >= 0.3. */
const coldGoalRatio = 0.04;
const coldGoalCpuUs = 330;
const visitorGoalRatio = 0.3;

async function main(): Promise<void> {
  const options = readArgs(process.argv.slice(2));
  const { duration, connections, only, cpuProf } = options;
  const measured = only.length > 0 ? pages.filter((p) => only.some((part) => p.name.includes(part))) : pages;
  if (options.oneShopper && measured.length === 0)
    throw new Error(`no page's name contains ${only.join(" or ")}`);

  console.log("building assets…");
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error("node scripts/build.mjs failed");

  const [shopPort, barePort] = [await freePort(), await freePort()];
  dataDir = mkdtempSync(join(tmpdir(), "photo-shop-bench-"));
  const shopEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    // Production requires the choice to be explicit; the bench pays nothing real.
    PAYMENT_PROVIDER: "test",
    LOG_LEVEL: "warn",
    PORT: String(shopPort),
    HOST: "127.0.0.1",
    // A production start names its address, too.
    PUBLIC_URL: `http://127.0.0.1:${shopPort}`,
    DATA_DIR: dataDir,
    DATABASE_URL:
      options.database === "postgres" ? await freshPostgresDatabase() : `sqlite:${join(dataDir, "shop.db")}`,
    COOKIE_SECRET: process.env.COOKIE_SECRET ?? "bench-cookie-secret-that-is-long-enough-0123456789",
  };
  const profiling = cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${cpuProf}`] : [];
  const shopServer = start("shop server", [...profiling, "--import", "tsx", "server/main.ts"], shopEnv);
  const bareFastify = start("bare Fastify server", ["-e", bareServer], {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(barePort),
  });
  const shop = `http://127.0.0.1:${shopPort}`;
  const bare = `http://127.0.0.1:${barePort}`;
  await Promise.all([waitUntilReady(`${shop}/healthz`), waitUntilReady(`${bare}/`)]);
  if (!options.oneShopper) {
    const allAnswered = await crowdBench({
      options,
      shop,
      bare,
      shopPid: shopServer.pid,
      barePid: bareFastify.pid,
      shopEnv,
    });
    await stopAll();
    if (!allAnswered) process.exit(1);
    return;
  }

  // A cart cookie signed with the server's secret, as the shop itself would set it.
  const cartCookie = `cart=${encodeURIComponent(cookieSignature.sign("benchbenchbenchbench01", shopEnv.COOKIE_SECRET ?? ""))}`;
  const shopperCookie = `shopper=${encodeURIComponent(cookieSignature.sign("benchshopperbenchshop1", shopEnv.COOKIE_SECRET ?? ""))}`;
  // Every request asks as a browser does, so answers are measured as shoppers get them.
  const browser = navigationHeaders;
  /**
   * A cart filled as a shopper does it: the product page's form posted three times, then
   * the cart looked at. Its cookies are what that shopper's browser
   * sends on the cart page.
   */
  const filledCartCookies = async () => {
    const jar = new Map<string, string>();
    const keep = (response: Response) => {
      for (const header of response.headers.getSetCookie()) {
        const pair = header.split(";")[0] ?? "";
        jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
      }
    };
    const page = await fetch(`${shop}/assortiment/fotoboeken/exclusief-fotoboek`, { headers: browser });
    keep(page);
    const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    for (const line of [
      { product: "exclusive-photobook", orientation: "landscape", size: "30x21", quantity: "1" },
      { product: "classic-prints", orientation: "portrait", size: "10x15", quantity: "24" },
      { product: "canvas", orientation: "square", size: "50x50", quantity: "1" },
    ]) {
      const added = await fetch(`${shop}/winkelwagen/inhoud`, {
        method: "POST",
        redirect: "manual",
        headers: {
          ...browser,
          "content-type": "application/x-www-form-urlencoded",
          // As a browser says of a post from the shop's own page (form-protection.ts).
          "sec-fetch-site": "same-origin",
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        },
        body: new URLSearchParams({ ...line, _csrf: token }),
      });
      if (added.status !== 303) throw new Error(`filling the bench cart: ${added.status}`);
      keep(added);
    }
    // The shopper looks at the cart once, as after adding; any cookie set then is sent from then on.
    keep(
      await fetch(`${shop}/winkelwagen/inhoud`, {
        headers: { ...browser, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      }),
    );
    return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  };
  const filled = await filledCartCookies();
  /**
   * A browser's cookies after it looked at the page once: any cookie the page sets is what
   * the browser sends from then on, so the bench asks as it would.
   */
  const afterOneLook = async (cookies: string, path: string) => {
    const page = await fetch(`${shop}${path}`, { headers: { ...browser, cookie: cookies } });
    await page.arrayBuffer();
    const set = page.headers.getSetCookie().map((header) => header.split(";")[0] ?? "");
    return [cookies, ...set.filter((pair) => !pair.endsWith("="))].join("; ");
  };
  const photo = new Blob([new Uint8Array(await benchPhoto())], { type: "image/jpeg" });
  const shoppers = {
    guest: measured.some((p) => p.shopper === "guest")
      ? await benchShopper(shop, dataDir, photo, { signedIn: false })
      : undefined,
    "signed-in": measured.some((p) => p.shopper === "signed-in")
      ? await benchShopper(shop, dataDir, photo, { signedIn: true })
      : undefined,
  };
  const shopperOf = (page: (typeof pages)[number]) => (page.shopper ? shoppers[page.shopper] : undefined);
  const pathOf = (page: (typeof pages)[number]) => {
    const shopper = shopperOf(page);
    return typeof page.path === "string" ? page.path : shopper ? page.path(shopper) : "/";
  };
  const headersFor = async (page: (typeof pages)[number]): Promise<Record<string, string>> => {
    const cookies: string[] = [];
    // Cookies made up here, not by the shop: what the page sets on a first look goes with them.
    const madeUp = [page.withCart && cartCookie, page.withShopper && shopperCookie].filter(Boolean);
    if (madeUp.length > 0) cookies.push(await afterOneLook(madeUp.join("; "), pathOf(page)));
    if (page.filledCart) cookies.push(filled);
    const shopper = shopperOf(page);
    if (shopper) cookies.push(shopper.cookie);
    return cookies.length > 0 ? { ...browser, cookie: cookies.join("; ") } : browser;
  };
  const productPage = pages.find((p) => p.name === "nl product");
  const sameBytes = productPage ? await gzipBytes(`${shop}${pathOf(productPage)}`) : undefined;
  if (sameBytes) {
    await fetch(`${bare}/body`, {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array(sameBytes),
    });
  }
  type Target = { name: string; url: string; headers: Record<string, string>; pid?: number };
  const bareTarget: Target = {
    name: "bare Fastify",
    url: `${bare}/`,
    headers: browser,
    pid: bareFastify.pid,
  };
  const references: Target[] = sameBytes
    ? [
        {
          name: `bare Fastify, the nl product page's ${(sameBytes.length / 1024).toFixed(1)} kB gzip as a ready buffer`,
          url: `${bare}/body`,
          headers: browser,
          pid: bareFastify.pid,
        },
      ]
    : [];
  const pageTargets: Target[] = await Promise.all(
    measured.map(async (p) => ({
      name: p.name,
      url: `${shop}${pathOf(p)}`,
      headers: await headersFor(p),
      pid: shopServer.pid,
    })),
  );
  const targets = [...references, ...pageTargets];
  console.log(
    `measuring ${targets.length} targets, one after another: ${warmupSeconds} s warm-up, then ${duration} slices of ${sliceSeconds} s, each next to a slice of the bare route; ${connections} connections`,
  );

  interface Measured {
    name: string;
    path: string;
    result: LoadResult;
    /** The bare route in the slices next to this target's */
    bare: LoadResult;
    /** The lowest and highest ratio of one slice to the bare slice next to it */
    roundRatios: [number, number];
    /** Share of one core the serving process used, and its CPU time per answer */
    busy?: number;
    cpuPerRequestUs?: number;
  }
  /** One slice of load on a target, with the CPU its server used meanwhile. */
  const slice = async (target: Target, seconds: number, warmup: number) => {
    let cpuAtStart: number | undefined;
    let cpuAtEnd: number | undefined;
    const result = await load({
      url: target.url,
      headers: target.headers,
      connections,
      duration: seconds,
      warmup,
      onMeasuring: (phase) => {
        if (phase === "start") cpuAtStart = cpuSeconds(target.pid);
        else cpuAtEnd = cpuSeconds(target.pid);
      },
    });
    const cpu = cpuAtStart !== undefined && cpuAtEnd !== undefined ? cpuAtEnd - cpuAtStart : undefined;
    return { result, cpu };
  };
  // The machine's speed drifts, on a shared machine by a third or more within seconds, so a
  // page is measured in short slices, each next to a slice of the bare route, in the order
  // bare-page, page-bare, ...: both see the same machine, and a steady drift cancels out.
  const measure = async (target: Target): Promise<Measured> => {
    process.stdout.write(`  ${target.name} (${new URL(target.url).pathname})… `);
    await slice(target, warmupSeconds, 0);
    const own: Array<Awaited<ReturnType<typeof slice>>> = [];
    const bareSlices: LoadResult[] = [];
    for (let round = 0; round < duration; round++) {
      const pageFirst = round % 2 === 1;
      if (!pageFirst) bareSlices.push((await slice(bareTarget, sliceSeconds, sliceWarmupSeconds)).result);
      own.push(await slice(target, sliceSeconds, sliceWarmupSeconds));
      if (pageFirst) bareSlices.push((await slice(bareTarget, sliceSeconds, sliceWarmupSeconds)).result);
    }
    const result = combined(own.map(({ result }) => result));
    const bare = combined(bareSlices);
    const perRound = own.map(
      ({ result }, round) => result.requestsPerSecond / (bareSlices[round]?.requestsPerSecond || 1),
    );
    const cpu = own.some(({ cpu }) => cpu === undefined)
      ? undefined
      : own.reduce((sum, { cpu }) => sum + (cpu ?? 0), 0);
    console.log(`${Math.round(result.requestsPerSecond)} req/s, bare ${Math.round(bare.requestsPerSecond)}`);
    return {
      name: target.name,
      path: new URL(target.url).pathname,
      result,
      bare,
      roundRatios: [Math.min(...perRound), Math.max(...perRound)],
      busy: cpu === undefined ? undefined : cpu / result.seconds,
      cpuPerRequestUs: cpu === undefined || result.requests === 0 ? undefined : (cpu / result.requests) * 1e6,
    };
  };

  await slice(bareTarget, warmupSeconds, 0);
  const results: Measured[] = [];
  for (const target of targets) results.push(await measure(target));

  const ratioOf = ({ result, bare }: Measured) =>
    bare.requestsPerSecond > 0 ? result.requestsPerSecond / bare.requestsPerSecond : 0;
  const rows = [
    [
      "target",
      "req/s",
      "bare req/s",
      "vs bare",
      "per slice",
      "p99 ms",
      "kB/answer",
      "server busy",
      "CPU µs/answer",
      "status",
    ],
    ...results.map((measuredTarget) => {
      const { name, path, result, bare, roundRatios, busy, cpuPerRequestUs } = measuredTarget;
      return [
        `${name} ${path}`,
        result.requestsPerSecond.toFixed(0),
        bare.requestsPerSecond.toFixed(0),
        ratioOf(measuredTarget).toFixed(2),
        roundRatios.map((ratio) => ratio.toFixed(2)).join("–"),
        result.latencyP99Ms.toFixed(1),
        (result.bodyBytes / 1024).toFixed(1),
        busy === undefined ? "" : `${Math.round(busy * 100)}%`,
        cpuPerRequestUs === undefined ? "" : cpuPerRequestUs.toFixed(0),
        statusSummary(result),
      ];
    }),
  ];
  console.log(`\n${table(rows)}\n`);
  const bareRates = results.map(({ bare }) => bare.requestsPerSecond);
  console.log(
    `bare Fastify, next to each target: ${Math.round(Math.min(...bareRates))}–${Math.round(Math.max(...bareRates))} req/s; each ratio is to the bare slices next to its own`,
  );
  const generatorBound = results.filter(({ busy }) => busy !== undefined && busy < 0.9);
  for (const { name, busy } of generatorBound) {
    console.log(
      `note: the server was only ${Math.round((busy ?? 0) * 100)}% busy for "${name}": that figure is the load generator's limit, not the server's`,
    );
  }

  console.log(`goal: rendered pages should reach >= 1/3 of bare with p99 <= ${goalP99Ms} ms`);
  for (const measuredTarget of results) {
    const { name, path, result } = measuredTarget;
    if (name.startsWith("bare Fastify")) continue;
    const ratio = ratioOf(measuredTarget);
    const goal = pages.find((p) => p.name === name)?.goal ?? goalRatio;
    const own = goal === goalRatio ? "" : ` (its goal: ${goal.toFixed(2)})`;
    const met = ratio >= goal && result.latencyP99Ms <= goalP99Ms;
    console.log(
      `  ${met ? "PASS " : "BELOW"} ${name} ${path}: ${ratio.toFixed(2)} of bare, p99 ${result.latencyP99Ms.toFixed(1)} ms${own}`,
    );
  }

  const failing = results.filter(
    ({ result }) =>
      result.errors > 0 || Object.keys(result.statusCounts).some((code) => !code.startsWith("2")),
  );
  await stopAll();
  if (failing.length > 0) {
    for (const { name, path, result } of failing) {
      console.error(`ERROR ${name} ${path}: ${statusSummary(result)}`);
    }
    process.exit(1);
  }
}

main().catch(async (err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
  await stopAll();
  process.exit(1);
});
