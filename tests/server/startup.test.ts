import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { testSecret } from "../support/app.ts";
import {
  freePort,
  lines,
  type ShopProcess,
  startShopProcess,
  stopAllShopProcesses,
  until,
} from "../support/shop-process.ts";
import { startSmtpServer } from "../support/smtp.ts";

afterEach(stopAllShopProcesses);

/** The real entry point, as `npm start` runs it, in its own process, logging at info. */
function start(env: Record<string, string>): ShopProcess {
  return startShopProcess({
    COOKIE_SECRET: testSecret,
    DATA_DIR: mkdtempSync(join(tmpdir(), "shop-start-")),
    LOG_LEVEL: "info",
    ...env,
  });
}

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

  it("NODE_ENV=prod without PAYMENT_PROVIDER exits non-zero with one line naming what to set", async () => {
    const shop = start({ NODE_ENV: "prod", PORT: String(await freePort()) });
    expect(await shop.exit).toBe(1);
    const out = lines(shop.output());
    expect(out).toHaveLength(1);
    const message = JSON.parse(out[0] ?? "").msg;
    expect(message).toMatch(
      /^cannot start: environment variable PAYMENT_PROVIDER: must be set when NODE_ENV=prod /,
    );
    expect(message).toContain("environment variable PUBLIC_URL: must be set");
  });

  it("the default start logs one warning line that the test provider takes the payments", async () => {
    const port = await freePort();
    const shop = start({ PORT: String(port), LOG_LEVEL: "warn" });
    await until(() => lines(shop.output()).length > 0);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).ok).toBe(true);
    shop.child.kill("SIGTERM");
    expect(await shop.exit).toBe(0);
    const warnings = lines(shop.output())
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.level === 40);
    expect(warnings.map((entry) => entry.msg)).toEqual([
      expect.stringMatching(/^payments: the built-in test provider/),
    ]);
  });

  it("when a setting is invalid, names it in one line", async () => {
    const shop = start({ PORT: "not-a-port" });
    expect(await shop.exit).toBe(1);
    expect(lines(shop.output())).toHaveLength(1);
    expect(shop.output()).toContain("PORT");
  });

  // Its own time limit: a start and several waits on another process's log, on a busy machine.
  it("serves pages, and on SIGTERM finishes a request still sending its body, stores its work and exits cleanly", async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), "shop-term-"));
    const shop = start({ PORT: String(port), DATA_DIR: dataDir, CONTACT_RATE_LIMIT: "100" });
    const base = `http://127.0.0.1:${port}`;
    try {
      await until(async () => (await fetch(`${base}/healthz`)).ok);
      expect((await fetch(`${base}/de`)).status).toBe(200);

      const { cookie, token } = await formSession(base);
      const question = "Komt mijn fotoboek nog voor de verjaardag van oma?";
      const body = new URLSearchParams({
        ...questionFields("late@example.nl", question),
        _csrf: token,
      }).toString();
      const half = Math.floor(body.length / 2);
      const request = http.request(`${base}/klantenservice/contact`, {
        method: "POST",
        agent: false,
        headers: {
          cookie,
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      });
      const answer = new Promise<{ status?: number; headers: http.IncomingHttpHeaders; body: string }>(
        (resolve, reject) => {
          request.on("error", reject);
          request.on("response", (res) => {
            let text = "";
            res.on("data", (d) => {
              text += d;
            });
            res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
          });
        },
      );
      // Awaited below; a test that fails before then must not leave it unhandled.
      answer.catch(() => {});
      // Half the body: the server has the request (it logs it on arrival) and waits for the rest.
      request.write(body.slice(0, half));
      const arrived = () =>
        lines(shop.output()).some(
          (l) => l.includes('"msg":"incoming request"') && l.includes('"method":"POST"'),
        );
      await until(async () => arrived());

      shop.child.kill("SIGTERM");
      await until(async () => shop.output().includes("shutting down: finishing requests in flight"));
      // Closing: a new visitor is turned away while the first request is still unfinished.
      await until(async () =>
        fetch(`${base}/healthz`).then(
          () => false,
          () => true,
        ),
      );
      expect(shop.output()).not.toContain('"msg":"stopped"');

      request.end(body.slice(half));
      const finished = await answer;
      expect(finished.status).toBe(303);
      expect(finished.headers.location).toBe("/klantenservice/contact/bedankt");
      expect(finished.headers["set-cookie"]?.some((c) => c.startsWith("contact_sent="))).toBe(true);

      const code = await shop.exit;
      if (code !== 0) console.log(shop.output());
      expect(code).toBe(0);
      expect(shop.output()).toContain('"msg":"stopped"');

      // The message the request carried was stored before the shop stopped, its two mails with it.
      const database = new SQLite(join(dataDir, "shop.db"), { readonly: true });
      try {
        const stored = database.prepare("select email, question from contact_messages").all();
        expect(stored).toEqual([{ email: "late@example.nl", question }]);
        const mails = database.prepare("select kind from outbox order by kind").all();
        expect(mails).toEqual([{ kind: "contact-copy" }, { kind: "contact-support" }]);
      } finally {
        database.close();
      }
    } finally {
      shop.child.kill();
    }
  }, 60_000);

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
  }, 60_000);
});

/** The contact form as a browser holds it: its cookies and the hidden token. */
async function formSession(base: string): Promise<{ cookie: string; token: string }> {
  const form = await fetch(`${base}/klantenservice/contact`);
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? "";
  return { cookie, token };
}

const questionFields = (email: string, question = "Waar blijft mijn bestelling?") => ({
  name: "Anna",
  email,
  subject: "order",
  question,
  website: "",
});

/** Opens the contact form and sends a question, as a browser without JavaScript does. */
async function sendQuestion(base: string, email: string): Promise<void> {
  const { cookie, token } = await formSession(base);
  const sent = await fetch(`${base}/klantenservice/contact`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: token, ...questionFields(email) }),
  });
  expect(sent.status).toBe(303);
}
