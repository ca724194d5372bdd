import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { navigationHeaders } from "./browser-headers.ts";

/**
 * The bench's shopper, made against a running shop as a browser makes one: with an account
 * made through its mailed link (the .eml files under DATA_DIR/mail) and signed in, or as a
 * guest; an order placed and paid through the test provider, then a cart of two lines with
 * a delivery address, and a photo book of one photo. Their cookies are what that browser
 * sends from then on.
 */
export interface BenchShopper {
  cookie: string;
  /** The paid order's page, and the photo book's editor page. */
  orderPath: string;
  projectPath: string;
}

const browser = navigationHeaders;

/** A cookie jar and the requests of one browser. */
function browserSession(shop: string) {
  const jar = new Map<string, string>();
  let token = "";
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = async (response: Response) => {
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(";")[0] ?? "";
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value === "" || /max-age=0/i.test(header)) jar.delete(name);
      else jar.set(name, value);
    }
    const body = response.headers.get("content-type")?.includes("text/html") ? await response.text() : "";
    token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? token;
    return { response, body };
  };
  return {
    cookie,
    get: async (path: string) =>
      keep(await fetch(`${shop}${path}`, { headers: { ...browser, cookie: cookie() }, redirect: "manual" })),
    post: async (path: string, fields: Record<string, string>, body?: { data: Blob; contentType?: string }) =>
      keep(
        await fetch(`${shop}${path}`, {
          method: "POST",
          redirect: "manual",
          headers: {
            ...browser,
            // As a browser says of a post from the shop's own page (form-protection.ts).
            "sec-fetch-site": "same-origin",
            cookie: cookie(),
            ...(body ? {} : { "content-type": "application/x-www-form-urlencoded" }),
          },
          body: body
            ? (() => {
                const form = new FormData();
                form.set("_csrf", token);
                for (const [k, v] of Object.entries(fields)) form.set(k, v);
                form.set("photos", body.data, "bench.jpg");
                return form;
              })()
            : new URLSearchParams({ ...fields, _csrf: token }),
        }),
      ),
  };
}

/** The link in the newest mail of `kind`, as its reader's mail program shows it. */
function linkFromMail(dataDir: string, kind: string): string {
  const dir = join(dataDir, "mail");
  const name = readdirSync(dir)
    .filter((f) => f.endsWith(`-${kind}.eml`))
    .sort()
    .pop();
  if (!name) throw new Error(`no ${kind} mail in ${dir}`);
  const text = readFileSync(join(dir, name), "utf8")
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const link = /https?:\/\/\S+\/account\/bevestigen\/[\w-]{43}/.exec(text)?.[0];
  if (!link) throw new Error(`no link in the ${kind} mail`);
  return new URL(link).pathname;
}

const expect = (what: string, status: number, wanted: number) => {
  if (status !== wanted) throw new Error(`bench shopper: ${what} answered ${status}, not ${wanted}`);
};

export async function benchShopper(
  shop: string,
  dataDir: string,
  photo: Blob,
  { signedIn }: { signedIn: boolean },
): Promise<BenchShopper> {
  const s = browserSession(shop);
  if (signedIn) await makeAccount(s, dataDir);
  return fillCartAndOrder(s, shop, photo, signedIn ? "bench@example.nl" : "gast@example.nl");
}

async function makeAccount(s: ReturnType<typeof browserSession>, dataDir: string): Promise<void> {
  const password = "Zomer aan zee 2026!";
  await s.get("/account/aanmaken");
  const asked = await s.post("/account/aanmaken", {
    name: "Bench de Shopper",
    email: "bench@example.nl",
    password,
    passwordConfirm: password,
  });
  expect("asking for an account", asked.response.status, 303);
  // As a browser follows the redirect: the page says once where the mail went, and clears that note.
  await s.get(new URL(asked.response.headers.get("location") ?? "", "http://shop").pathname);
  // The sender writes the mail just after the answer: give it a moment.
  let link = "";
  for (let i = 0; i < 50 && !link; i++) {
    try {
      link = linkFromMail(dataDir, "account-confirm");
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await s.get(link);
  const confirmed = await s.post(link, {});
  expect("confirming the account", confirmed.response.status, 303);
  // As a browser follows the redirect: the account page welcomes once, and clears that note.
  await s.get(new URL(confirmed.response.headers.get("location") ?? "", "http://shop").pathname);
}

async function fillCartAndOrder(
  s: ReturnType<typeof browserSession>,
  shop: string,
  photo: Blob,
  email: string,
): Promise<BenchShopper> {
  await s.get("/assortiment/fotoboeken/exclusief-fotoboek");
  for (const line of [
    { product: "exclusive-photobook", orientation: "landscape", size: "30x21", quantity: "1" },
    { product: "classic-prints", orientation: "portrait", size: "10x15", quantity: "24" },
    { product: "canvas", orientation: "square", size: "50x50", quantity: "1" },
  ]) {
    expect("adding to the cart", (await s.post("/winkelwagen/inhoud", line)).response.status, 303);
  }
  const address = {
    name: "Bench de Shopper",
    street: "Dorpsstraat 12",
    postcode: "1234 AB",
    city: "Utrecht",
    country: "NL",
    email,
  };
  await s.get("/winkelwagen/adres");
  expect("giving the address", (await s.post("/winkelwagen/adres", address)).response.status, 303);

  // An order placed and paid, then the same cart filled again for the cart pages.
  const overview = await s.get("/winkelwagen/overzicht");
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(overview.body)?.[1] ?? "";
  const placed = await s.post("/winkelwagen/overzicht", {
    orderKey: field("orderKey"),
    fingerprint: field("fingerprint"),
  });
  expect("placing the order", placed.response.status, 303);
  const testPage = new URL(placed.response.headers.get("location") ?? "", shop).pathname;
  await s.get(testPage);
  const paid = await s.post(testPage, { outcome: "paid" });
  // With its query: the order page opens by the order's own secret (ADR 0089).
  const returned = new URL(paid.response.headers.get("location") ?? "", shop);
  const orderPath = `${returned.pathname}${returned.search}`;
  await s.get("/assortiment/fotoboeken/exclusief-fotoboek");
  for (const line of [
    { product: "exclusive-photobook", orientation: "landscape", size: "30x21", quantity: "1" },
    { product: "classic-prints", orientation: "portrait", size: "10x15", quantity: "24" },
  ]) {
    await s.post("/winkelwagen/inhoud", line);
  }
  await s.get("/winkelwagen/adres");
  await s.post("/winkelwagen/adres", address);

  await s.get("/fotoboek-maken?fotoboek=exclusief-fotoboek&orientatie=staand&formaat=21x30");
  const started = await s.post(
    "/fotoboek-maken",
    { product: "exclusive-photobook", format: "portrait:21x30" },
    { data: photo },
  );
  expect("starting a photo book", started.response.status, 303);
  const projectPath = new URL(started.response.headers.get("location") ?? "", shop).pathname;
  // As a browser follows the redirect: the page says once what was added, and clears that note.
  await s.get(projectPath);
  return { cookie: s.cookie(), orderPath, projectPath };
}
