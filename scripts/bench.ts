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
import sharp from "sharp";
import { type BenchShopper, benchShopper } from "./bench-shopper.ts";
import { combined, type LoadResult, load } from "./load-generator.ts";

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

function readArgs(argv: string[]): {
  duration: number;
  connections: number;
  only: string[];
  cpuProf?: string;
} {
  const options: { duration: number; connections: number; only: string[]; cpuProf?: string } = {
    duration: 5,
    connections: 50,
    only: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.split("=", 2);
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
    if (flag !== "--duration" && flag !== "--connections") {
      throw new Error(
        `unknown argument ${arg}; use --duration N, --connections N, --only NAME and/or --cpu-prof DIR`,
      );
    }
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${flag} needs a whole number >= 1, got ${raw}`);
    options[flag === "--duration" ? "duration" : "connections"] = value;
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

async function main(): Promise<void> {
  const { duration, connections, only, cpuProf } = readArgs(process.argv.slice(2));
  const measured = only.length > 0 ? pages.filter((p) => only.some((part) => p.name.includes(part))) : pages;
  if (measured.length === 0) throw new Error(`no page's name contains ${only.join(" or ")}`);

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

  // A cart cookie signed with the server's secret, as the shop itself would set it.
  const cartCookie = `cart=${encodeURIComponent(cookieSignature.sign("benchbenchbenchbench01", shopEnv.COOKIE_SECRET ?? ""))}`;
  const shopperCookie = `shopper=${encodeURIComponent(cookieSignature.sign("benchshopperbenchshop1", shopEnv.COOKIE_SECRET ?? ""))}`;
  // Every request asks as a browser does, so compressed answers are measured as shoppers get them.
  const browser = { "accept-encoding": "gzip, deflate, br, zstd" };
  /**
   * A cart filled as a shopper does it: the product page's form posted three times, then
   * the cart looked at. Its cookies (cart and form secret) are what that shopper's browser
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
    // The first look at the cart gives the browser its form secret, which it sends from then on.
    keep(
      await fetch(`${shop}/winkelwagen/inhoud`, {
        headers: { ...browser, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      }),
    );
    return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  };
  const filled = await filledCartCookies();
  /**
   * A browser's cookies after it looked at the page once: the form secret the page sets is
   * what the browser sends from then on, so the bench asks as it would.
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
