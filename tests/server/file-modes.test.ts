import type { ChildProcess } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { multipart, photos } from "../support/photos.ts";
import { freePort, startShopProcess, until } from "../support/shop-process.ts";

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

/** Under umask 000, so that anything created without an explicit mode would be readable by everyone. */
function start(env: Record<string, string>) {
  const shop = startShopProcess(env, { umask: "000" });
  running.push(shop.child);
  return shop;
}

/** Every file and folder under (and including) a folder, with its permission bits. */
function modesUnder(root: string): Record<string, string> {
  const modes: Record<string, string> = {};
  const visit = (path: string) => {
    const stat = lstatSync(path);
    modes[relative(root, path) || "."] =
      `${stat.isDirectory() ? "folder" : "file"} ${(stat.mode & 0o777).toString(8)}`;
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return modes;
}

/** Folders 0700 and files 0600, for every path found. */
function privately(modes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(modes).map(([path, mode]) => [
      path,
      mode.startsWith("folder") ? "folder 700" : "file 600",
    ]),
  );
}

/** A browser without JavaScript: the cookies the shop sets, and the form token off each page. */
function browser(base: string) {
  const cookies = new Map<string, string>();
  let token = "";
  const remember = async (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const found = /name="_csrf" value="([^"]+)"/.exec(await res.text())?.[1];
    if (found) token = found;
    return res;
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  return {
    get: async (path: string) => remember(await fetch(`${base}${path}`, { headers: { cookie: cookie() } })),
    post: async (path: string, body: { payload: Buffer | string; contentType: string }) =>
      remember(
        await fetch(`${base}${path}`, {
          method: "POST",
          redirect: "manual",
          headers: { cookie: cookie(), "content-type": body.contentType, "sec-fetch-site": "same-origin" },
          body: typeof body.payload === "string" ? body.payload : new Uint8Array(body.payload),
        }),
      ),
    token: () => token,
  };
}

describe("a shop keeping shoppers' data in its data folder", () => {
  it("creates every file there 0600 and every folder 0700: the database, the mails, the photos", async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "shop-modes-")), "data");
    const port = await freePort();
    // No COOKIE_SECRET (the secret is kept in the folder), no SMTP_URL (mail as .eml files).
    const shop = start({ PORT: String(port), DATA_DIR: dataDir });
    const base = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${base}/healthz`)).ok);

    const anna = browser(base);
    await anna.get("/klantenservice/contact");
    const question = new URLSearchParams({
      _csrf: anna.token(),
      name: "Anna",
      email: "anna@example.nl",
      subject: "order",
      question: "Waar blijft mijn bestelling?",
      website: "",
    });
    const asked = await anna.post("/klantenservice/contact", {
      payload: question.toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(asked.status).toBe(303);

    await anna.get("/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30");
    const started = await anna.post(
      "/fotoboek-maken",
      multipart([
        { name: "_csrf", value: anna.token() },
        { name: "product", value: "exclusive-photobook" },
        { name: "format", value: "portrait:21x30" },
        { name: "photos", file: { filename: "strand.jpg", data: await photos.jpeg(), type: "image/jpeg" } },
      ]),
    );
    expect(started.status).toBe(303);
    await until(() => readdirSync(join(dataDir, "mail")).filter((f) => f.endsWith(".eml")).length === 2);

    const whileRunning = modesUnder(dataDir);
    const names = Object.keys(whileRunning);
    // What is there: proof that each kind of file was written, not only that nothing is open.
    for (const expected of ["cookie-secret", "shop.db", "shop.db-wal", "shop.db-shm", "mail", "uploads"]) {
      expect(names).toContain(expected);
    }
    expect(names.filter((n) => n.startsWith("mail/") && n.endsWith(".eml"))).toHaveLength(2);
    expect(names.filter((n) => n.startsWith("uploads/originals/"))).toHaveLength(1);
    expect(names.filter((n) => n.startsWith("uploads/thumbnails/"))).toHaveLength(1);
    expect(whileRunning).toEqual(privately(whileRunning));

    shop.child.kill("SIGTERM");
    expect(await shop.exit).toBe(0);
    const afterwards = modesUnder(dataDir);
    expect(afterwards).toEqual(privately(afterwards));
  }, 60_000);

  it("tightens a data folder and database that an earlier version left readable by everyone", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "shop-modes-old-"));
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, "shop.db"), "");
    chmodSync(join(dataDir, "shop.db"), 0o644);
    mkdirSync(join(dataDir, "mail"), { mode: 0o755 });
    const port = await freePort();
    const shop = start({ PORT: String(port), DATA_DIR: dataDir, COOKIE_SECRET: "s".repeat(40) });
    await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok);

    const modes = modesUnder(dataDir);
    expect(modes["."]).toBe("folder 700");
    expect(modes["shop.db"]).toBe("file 600");
    expect(modes["shop.db-wal"]).toBe("file 600");
    // Left as it was, but out of reach: only the shop's user may enter the folder above it.
    expect(modes.mail).toBe("folder 755");

    shop.child.kill("SIGTERM");
    expect(await shop.exit).toBe(0);
  }, 60_000);
});
