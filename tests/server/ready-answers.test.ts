import { gunzipSync, gzipSync } from "node:zlib";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allHold, readyAnswers } from "../../server/http/caching/ready-answers.ts";

let app: FastifyInstance;
let clock = 0;
let renders = 0;
/** What the shopper's own page shows; the check compares it with what the page was made at. */
let revision = 0;
let checkFails: boolean | "at once" = false;
/** The database's commit mark; undefined: the database cannot tell. */
let mark: string | undefined;
/** How often the commit mark was read */
let markReads = 0;
/** How often the check's database part was asked */
let storedAsked = 0;
/** What the check's other part (the clock, memory) says */
let meanwhileHolds = true;
/** Runs when the check's clock part is asked, as a request arrives */
let onArrival = () => {};
/** Runs inside the database part of the check, as a commit landing while it reads would */
let duringCheck = () => {};

/** A page route as the shop's pages answer: gzip, one language, offered for ready use. */
beforeEach(async () => {
  clock = 1_000_000;
  renders = 0;
  revision = 0;
  checkFails = false;
  mark = "commit 1";
  storedAsked = 0;
  markReads = 0;
  meanwhileHolds = true;
  onArrival = () => {};
  duringCheck = () => {};
  app = Fastify();
  const ready = readyAnswers({
    ttlMs: 1000,
    now: () => clock,
    commitMark: () => {
      markReads++;
      return mark;
    },
  });
  ready.serve(app);
  await app.register(fastifyCookie, { secret: "ready-answers-test-secret" });
  ready.keep(app);
  app.get<{ Querystring: { status?: string; cookie?: string } }>(
    "/pagina",
    { config: { locale: "nl" } as never },
    async (request, reply) => {
      renders++;
      if (request.query.cookie) reply.setCookie("flash", "hoi");
      reply.keepReady();
      return reply
        .code(Number(request.query.status ?? 200))
        .header("content-encoding", "gzip")
        .header("content-language", "nl")
        .type("text/html; charset=utf-8")
        .send(gzipSync(`<p>render ${renders}</p>`));
    },
  );
  app.get("/mijn-pagina", { config: { locale: "nl" } as never }, async (_request, reply) => {
    renders++;
    const madeAt = revision;
    reply.keepReady({
      stored: (): Promise<boolean> => {
        storedAsked++;
        duringCheck();
        // A check may fail before it returns its promise, as well as by rejecting it.
        if (checkFails === "at once") throw new Error("database unavailable");
        if (checkFails) return Promise.reject(new Error("database unavailable"));
        return Promise.resolve(revision === madeAt);
      },
      meanwhile: () => {
        onArrival();
        return meanwhileHolds;
      },
    });
    return reply.header("content-encoding", "gzip").send(gzipSync(`<p>revision ${madeAt}</p>`));
  });
  app.get("/zonder-taal", async (_request, reply) => {
    renders++;
    reply.keepReady();
    return reply.header("content-encoding", "gzip").send(gzipSync("x"));
  });
});
afterEach(() => app.close());

const visit = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { "accept-encoding": "gzip", ...headers } });

describe("ready answers for visitors without cookies", () => {
  it("serve the same status, headers and bytes again without running the route", async () => {
    const first = await visit("/pagina");
    const second = await visit("/pagina");
    expect(renders).toBe(1);
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers["content-encoding"]).toBe("gzip");
    expect(second.headers["content-language"]).toBe("nl");
    expect(second.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("are kept for a second only", async () => {
    await visit("/pagina");
    clock += 999;
    await visit("/pagina");
    expect(renders).toBe(1);
    clock += 1;
    const later = await visit("/pagina");
    expect(renders).toBe(2);
    expect(later.statusCode).toBe(200);
  });

  it("are told apart by address and query", async () => {
    await visit("/pagina");
    await visit("/pagina?formaat=21x30");
    expect(renders).toBe(2);
  });

  it("when the visitor sends a cookie, an ajax request or takes no gzip, the route answers", async () => {
    await visit("/pagina");
    await visit("/pagina", { cookie: "cart=abc" });
    await visit("/pagina", { "x-requested-with": "XMLHttpRequest" });
    await app.inject({ url: "/pagina" });
    expect(renders).toBe(4);
  });

  it("never keep an answer that sets a cookie, one with another status, or a page of no fixed language", async () => {
    await visit("/pagina?cookie=1");
    await visit("/pagina?cookie=1");
    await visit("/pagina?status=404");
    await visit("/pagina?status=404");
    await visit("/zonder-taal");
    await visit("/zonder-taal");
    expect(renders).toBe(6);
  });
});

describe("ready answers for a shopper's own page", () => {
  const mine = { cookie: "cart=abc.signed; _csrf=def.signed" };

  it("go again to the same browser while the route's check says the page still holds", async () => {
    const first = await visit("/mijn-pagina", mine);
    const second = await visit("/mijn-pagina", mine);
    expect(renders).toBe(1);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    revision++;
    mark = "commit 2";
    await visit("/mijn-pagina", mine);
    expect(renders).toBe(2);
  });

  it("while nothing was committed, go again without reading the database; after a commit, read it again", async () => {
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    expect(storedAsked).toBe(1);
    expect(renders).toBe(1);
    mark = "commit 2";
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    expect(storedAsked).toBe(2);
    expect(renders).toBe(1);
  });

  it("when something was committed while the check read, read again on the next use", async () => {
    await visit("/mijn-pagina", mine);
    duringCheck = () => {
      mark = "commit 2";
    };
    await visit("/mijn-pagina", mine);
    duringCheck = () => {};
    revision++;
    await visit("/mijn-pagina", mine);
    expect(storedAsked).toBe(2);
    expect(renders).toBe(2);
  });

  it("requests that arrive together share one reading of the commit mark, taken after the last of them arrived", async () => {
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    markReads = 0;
    const together = await Promise.all([1, 2, 3, 4].map(() => visit("/mijn-pagina", mine)));
    expect(together.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    expect(markReads).toBe(1);
    expect(storedAsked).toBe(1);
    expect(renders).toBe(1);
  });

  it("a commit made while requests wait for the mark is seen by all of them", async () => {
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    let arrived = 0;
    // Another process commits a change to the page once all three arrived, before the mark is read.
    onArrival = () => {
      if (++arrived < 3) return;
      revision++;
      mark = "commit 2";
    };
    const answered = await Promise.all([1, 2, 3].map(() => visit("/mijn-pagina", mine)));
    expect(answered.map((res) => gunzipSync(res.rawPayload).toString())).toEqual(
      Array(3).fill("<p>revision 1</p>"),
    );
    expect(storedAsked).toBe(4);
    expect(renders).toBe(4);
  });

  it("where the database cannot tell what was committed, read it on every use", async () => {
    mark = undefined;
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    expect(storedAsked).toBe(2);
    expect(renders).toBe(1);
  });

  it("when the clock or memory says the page no longer holds, the route answers, committed or not", async () => {
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", mine);
    meanwhileHolds = false;
    const res = await visit("/mijn-pagina", mine);
    expect(renders).toBe(2);
    expect(res.statusCode).toBe(200);
  });

  it("never go to a browser with other cookies", async () => {
    await visit("/mijn-pagina", mine);
    await visit("/mijn-pagina", { cookie: "cart=other.signed; _csrf=def.signed" });
    await visit("/mijn-pagina");
    expect(renders).toBe(3);
  });

  it("without a check, are never kept for a browser with cookies", async () => {
    await visit("/pagina", mine);
    await visit("/pagina", mine);
    expect(renders).toBe(2);
  });

  it("when the check fails, the route answers", async () => {
    await visit("/mijn-pagina", mine);
    checkFails = true;
    mark = "commit 2";
    const res = await visit("/mijn-pagina", mine);
    expect(renders).toBe(2);
    expect(res.statusCode).toBe(200);
    checkFails = "at once";
    mark = "commit 3";
    const again = await visit("/mijn-pagina", mine);
    expect(renders).toBe(3);
    expect(again.statusCode).toBe(200);
  });
});

describe("a check made of several", () => {
  it("holds when all hold, asking the database parts in order and stopping at the first that fails", async () => {
    const asked: string[] = [];
    const part = (name: string, holds: boolean) => ({
      stored: async () => {
        asked.push(name);
        return holds;
      },
    });
    const request = {} as never;
    expect(await allHold(part("cart", true), part("account", true)).stored?.(request)).toBe(true);
    expect(await allHold(part("cart", false), part("account", true)).stored?.(request)).toBe(false);
    expect(asked).toEqual(["cart", "account", "cart"]);
  });

  it("asks every clock or memory part, and has no database part when none of its checks has one", () => {
    const clockOnly = allHold({ meanwhile: () => true }, { meanwhile: () => false });
    expect(clockOnly.stored).toBeUndefined();
    expect(clockOnly.meanwhile?.()).toBe(false);
    expect(allHold({ meanwhile: () => true }, { stored: async () => true }).meanwhile?.()).toBe(true);
  });
});
