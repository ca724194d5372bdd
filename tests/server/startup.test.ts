import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testSecret } from "../support/app.ts";
import { startSmtpServer } from "../support/smtp.ts";

/** The real entry point, as `npm start` runs it, in its own process. */
function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: {
      PATH: process.env.PATH,
      COOKIE_SECRET: testSecret,
      DATA_DIR: mkdtempSync(join(tmpdir(), "shop-start-")),
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exit };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out");
}

const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");

describe("starting the shop", () => {
  it("when the catalogue file is broken, exits non-zero with one line naming the entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shop-cat-"));
    const file = join(dir, "catalogue.json");
    writeFileSync(file, JSON.stringify({ categories: [], products: [] }));
    const shop = start({ CATALOGUE_PATH: file, PORT: String(await freePort()) });
    expect(await shop.exit).toBe(1);
    const out = lines(shop.output());
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0] ?? "").msg).toMatch(/^cannot start: catalogue: .*catalogue\.json: categories: /);
  });

  it("when the catalogue is not JSON, says so in one line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shop-cat-"));
    const file = join(dir, "catalogue.json");
    writeFileSync(file, "{ products: ");
    const shop = start({ CATALOGUE_PATH: file, PORT: String(await freePort()) });
    expect(await shop.exit).toBe(1);
    expect(lines(shop.output())).toHaveLength(1);
    expect(shop.output()).toContain("is not valid JSON");
  });

  it("when the database cannot be reached, exits non-zero with one line and no password", async () => {
    const port = await freePort();
    const shop = start({
      DATABASE_URL: `postgres://shop:hunter2@127.0.0.1:${port}/shop`,
      PORT: String(await freePort()),
    });
    expect(await shop.exit).toBe(1);
    const out = lines(shop.output());
    expect(out).toHaveLength(1);
    expect(out[0]).toContain("cannot start: database postgres://***@127.0.0.1");
    expect(out[0]).not.toContain("hunter2");
  });

  it("when a setting is invalid, names it in one line", async () => {
    const shop = start({ PORT: "not-a-port" });
    expect(await shop.exit).toBe(1);
    expect(lines(shop.output())).toHaveLength(1);
    expect(shop.output()).toContain("PORT");
  });

  it("serves pages, and on SIGTERM finishes the request in flight before it exits cleanly", async () => {
    const port = await freePort();
    const shop = start({ PORT: String(port) });
    const base = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${base}/healthz`)).ok);
    expect((await fetch(`${base}/de`)).status).toBe(200);

    const inFlight = fetch(`${base}/`).then(async (r) => ({ status: r.status, body: await r.text() }));
    await new Promise((r) => setTimeout(r, 5));
    shop.child.kill("SIGTERM");
    const finished = await inFlight;
    expect(finished.status).toBe(200);
    expect(finished.body).toContain("</html>");
    const code = await shop.exit;
    if (code !== 0) console.log(shop.output());
    expect(code).toBe(0);
    expect(shop.output()).toContain('"msg":"stopped"');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it("delivers the contact form's mail from the app process, over SMTP or as .eml files", async () => {
    const smtp = await startSmtpServer();
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), "shop-mail-"));
    const withSmtp = start({ PORT: String(port), SMTP_URL: smtp.url, SUPPORT_EMAIL: "service@example.nl" });
    const base = `http://127.0.0.1:${port}`;
    try {
      await until(async () => (await fetch(`${base}/healthz`)).ok);
      await sendQuestion(base, "anna@example.nl");
      await until(async () => smtp.received.length === 2);
      expect(smtp.received.map((m) => m.envelope.to[0]).sort()).toEqual([
        "anna@example.nl",
        "service@example.nl",
      ]);
      withSmtp.child.kill("SIGTERM");
      expect(await withSmtp.exit).toBe(0);
      expect(withSmtp.output()).toContain("mail sender");
    } finally {
      withSmtp.child.kill();
      await smtp.close();
    }

    const filePort = await freePort();
    const withFiles = start({ PORT: String(filePort), DATA_DIR: dataDir });
    try {
      const fileBase = `http://127.0.0.1:${filePort}`;
      await until(async () => (await fetch(`${fileBase}/healthz`)).ok);
      await sendQuestion(fileBase, "jan@example.nl");
      await until(
        async () => readdirSync(join(dataDir, "mail")).filter((f) => f.endsWith(".eml")).length === 2,
      );
      withFiles.child.kill("SIGTERM");
      expect(await withFiles.exit).toBe(0);
    } finally {
      withFiles.child.kill();
    }
  });
});

/** Opens the contact form and sends a question, as a browser without JavaScript does. */
async function sendQuestion(base: string, email: string): Promise<void> {
  const form = await fetch(`${base}/klantenservice/contact`);
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  const sent = await fetch(`${base}/klantenservice/contact`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      _csrf: token,
      name: "Anna",
      email,
      subject: "order",
      question: "Waar blijft mijn bestelling?",
      website: "",
    }),
  });
  expect(sent.status).toBe(303);
}
