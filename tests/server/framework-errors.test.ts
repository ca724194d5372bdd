import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paths } from "../../server/app.ts";
import { securityHeaders } from "../../server/http/security/headers.ts";
import { type TestShop, testShop } from "../support/app.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await testShop();
});
afterAll(() => shop.close());

type Lang = "nl" | "de";

const errorTitle = (lang: Lang, status: number): string =>
  JSON.parse(readFileSync(resolve(paths.locales, `${lang}.json`), "utf8")).errors[String(status)].title;

const contactForm: Record<Lang, string> = { nl: "/klantenservice/contact", de: "/kundenservice/kontakt" };

/** What a browser loading a page sends, and what curl sends. */
const clients = [
  {
    client: "a browser",
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    html: true,
  },
  { client: "curl (Accept: */*)", accept: "*/*", html: false },
];

interface Case {
  situation: string;
  status: number;
  request: (lang: Lang) => InjectOptions;
  /** What the client sent that must not come back. */
  sent: string[];
}

/** Marked text in bodies: if the answer repeated the input, this would be in it. */
const marker = "geheim-7f3a<script>alert(1)</script>";

const cases: Case[] = [
  {
    situation: "a visitor whose address cannot be decoded",
    status: 400,
    // The German one tells its language by the path; the Dutch one by nothing (the default).
    request: (lang) => ({ method: "GET", url: lang === "de" ? "/de/%E0%A4%A" : "/%zz-geheim" }),
    sent: ["%E0%A4%A", "%zz", "geheim"],
  },
  {
    situation: "a client posting JSON that does not parse to a form",
    status: 400,
    request: (lang) => ({
      method: "POST",
      url: contactForm[lang],
      headers: { "content-type": "application/json" },
      payload: `{"question": "${marker}`,
    }),
    sent: ["geheim-7f3a", "<script>alert(1)"],
  },
  {
    situation: "a client posting more than 1 MiB to a form",
    status: 413,
    request: (lang) => ({
      method: "POST",
      url: contactForm[lang],
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `question=${encodeURIComponent(marker)}${"x".repeat(1024 * 1024)}`,
    }),
    sent: ["geheim-7f3a", "xxxxxxxx"],
  },
  {
    situation: "a client posting XML to a form",
    status: 415,
    request: (lang) => ({
      method: "POST",
      url: contactForm[lang],
      headers: { "content-type": "application/xml" },
      payload: `<question>${marker}</question>`,
    }),
    sent: ["geheim-7f3a", "<question>", "application/xml"],
  },
];

function send(request: InjectOptions, accept: string, extra: Record<string, string> = {}) {
  return shop.app.inject({ ...request, headers: { ...(request.headers as object), accept, ...extra } });
}

function expectEveryProtectiveHeader(res: LightMyRequestResponse) {
  for (const [name, value] of Object.entries(securityHeaders(shop.config))) {
    expect(res.headers[name], name).toBe(value);
  }
  expect(res.headers["x-powered-by"]).toBeUndefined();
}

function expectShopAnswer(res: LightMyRequestResponse, lang: Lang, status: number, html: boolean) {
  expect(res.statusCode).toBe(status);
  expect(res.headers["content-language"]).toBe(lang);
  if (html) {
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.body).toMatch(new RegExp(`<html lang="${lang}"`));
    expect(res.body).toContain(`<title>${errorTitle(lang, status)} | Fotohoek</title>`);
    expect(res.body).toContain('<meta name="robots" content="noindex">');
  } else {
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.body).toBe(`${status} ${errorTitle(lang, status)}\n`);
  }
  expectEveryProtectiveHeader(res);
}

describe.each(cases)("$situation", ({ status, request, sent }) => {
  it.each(clients)(
    `gets ${status} from the shop, in Dutch and German, in $client, without the input`,
    async ({ accept, html }) => {
      for (const lang of ["nl", "de"] as const) {
        const res = await send(request(lang), accept);
        expectShopAnswer(res, lang, status, html);
        for (const text of sent) expect(res.body, `${lang}: ${text}`).not.toContain(text);
      }
    },
  );
});

describe("a visitor whose address cannot be decoded, from a German browser on a path of no language", () => {
  it("gets the page in German", async () => {
    const res = await send({ method: "GET", url: "/%zz" }, clients[0]?.accept ?? "", {
      "accept-language": "de-DE,de;q=0.9",
    });
    expectShopAnswer(res, "de", 400, true);
  });

  it("gets the same 400 when it posts a body there, which is never read", async () => {
    const res = await send(
      {
        method: "POST",
        url: "/klantenservice/%E0%A4%A",
        headers: { "content-type": "application/xml" },
        payload: `<question>${marker}</question>`,
      },
      "*/*",
    );
    expectShopAnswer(res, "nl", 400, false);
    expect(res.body).not.toContain("geheim-7f3a");
  });
});

describe("a visitor who asks for the address refused requests are answered on", () => {
  it("finds nothing there", async () => {
    const res = await send({ method: "GET", url: "/_refused" }, clients[0]?.accept ?? "");
    expectShopAnswer(res, "nl", 404, true);
  });
});

describe("a client posting a mangled form body", () => {
  // The urlencoded parser reads leniently (a broken escape stays as typed), so such a body
  // never fails to parse: the form's own checks refuse it, on the shop's page.
  it.each(clients)(
    "is refused by the form's checks with the shop's 403, in $client, without the input",
    async ({ accept, html }) => {
      const res = await send(
        {
          method: "POST",
          url: contactForm.nl,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: `question=%zz%E0%A4${encodeURIComponent(marker)}&_csrf=%`,
        },
        accept,
      );
      expectShopAnswer(res, "nl", 403, html);
      expect(res.body).not.toContain("geheim-7f3a");
    },
  );
});

describe("a beacon with JSON that does not parse, sent to the analytics endpoint", () => {
  // A machine endpoint with its own short JSON answers (400 for anything malformed or
  // oversized, whatever the client accepts); what matters is that they repeat nothing.
  it.each(clients)(
    "gets its short 400 with every protective header, in $client, without the input",
    async ({ accept }) => {
      const res = await send(
        {
          method: "POST",
          url: "/analytics/events",
          headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
          payload: `{"route": "${marker}`,
        },
        accept,
      );
      expect(res.statusCode).toBe(400);
      expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(res.json()).toEqual({ error: "malformed or oversized batch" });
      expectEveryProtectiveHeader(res);
    },
  );
});
