import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isAjax } from "../rendering/pages.ts";
import { acceptsGzip } from "./page-cache.ts";

/**
 * Whole answers kept as they were sent (status, headers, gzip body) and sent again before
 * the route runs, for two kinds of request:
 *
 * - a visitor who sends no cookies: their page is the same for everyone
 *   (form-protection.ts, page-cache.ts). Kept for a second, which is what a shopper who
 *   loaded the page a second earlier sees, and checked on each use where the route gives
 *   a check (an answer that holds for one clock second);
 * - a shopper's own page (their cart), only where the route gives a check that the page
 *   still holds, such as "the cart's revision is the one it was made at". The browser's
 *   whole Cookie header is part of the key, so one shopper's answer (with their form
 *   token) never reaches another, and the check is asked on every use: its database part
 *   only when something was committed since it last held (StillHolds).
 *
 * Anything else personal rules an answer out at both ends: an ajax request, a browser
 * that takes no gzip, a cookie set in the answer, a status other than 200, an address
 * that is not a page of one language (those read Accept-Language).
 *
 * Kept answers are written together, after the event loop has read every request that
 * arrived in its turn (serve).
 */
export interface ReadyAnswersOptions {
  /** How long a page for visitors without cookies is kept */
  ttlMs?: number;
  /** How long a shopper's own page is kept, checked on every use */
  personalTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
  /**
   * The database's mark of what has been committed (Database.commitMark): the same mark
   * again means nothing was committed in between. Undefined where it cannot tell.
   */
  commitMark?: () => string | undefined;
}

/**
 * Whether a kept answer still shows what the route would show now, asked for the new
 * request (its cookies parsed), never the one the answer was made for: what that one knew,
 * such as who was signed in, is remembered per request. The new request sends the same
 * Cookie header (it is part of the key), so what follows from the cookies alone, such as the
 * cart's id, may be taken once from the request the answer was made for.
 *
 * In two parts, by what can change it:
 */
export interface StillHolds {
  /**
   * What the answer shows of the database, read from it and from nothing else. What the
   * database held is what it holds while nothing has been committed since, on any connection
   * of any process: so this is asked only on the first use after a commit, and on every use
   * where the database cannot tell (PostgreSQL).
   */
  stored?: (request: FastifyRequest) => Promise<boolean>;
  /** What can change without a commit (the clock, this process's memory): asked on every use, so cheap. */
  meanwhile?: () => boolean;
}

/** Every check holds: the parts of the first are asked first. */
export function allHold(...checks: StillHolds[]): StillHolds {
  const stored = checks.flatMap((check) => (check.stored ? [check.stored] : []));
  const meanwhile = checks.flatMap((check) => (check.meanwhile ? [check.meanwhile] : []));
  return {
    ...(stored.length > 0 && {
      stored: async (request: FastifyRequest) => {
        for (const holds of stored) if (!(await holds(request))) return false;
        return true;
      },
    }),
    ...(meanwhile.length > 0 && { meanwhile: () => meanwhile.every((holds) => holds()) }),
  };
}

interface ReadyAnswer {
  /** Name, value, name, value...: written without walking an object's keys */
  headers: string[];
  body: Buffer;
  expires: number;
  stillHolds?: StillHolds;
  /** The database's commit mark when the stored part was last found to hold, taken before it was asked */
  heldAt?: string;
}

declare module "fastify" {
  interface FastifyReply {
    /**
     * Offers this answer for ready use (ready-answers.ts): to later visitors without
     * cookies, or, with a check, to the same browser again.
     */
    keepReady(stillHolds?: StillHolds): void;
  }
}

const offer = Symbol("ready answer offered");
type Offered = { [offer]?: { stillHolds?: StillHolds } };

/**
 * Whether this answer was offered to every visitor without cookies (no check that it
 * still holds): what a shared cache may keep too (private-caching.ts). Whether it is
 * kept here as well depends on more (gzip, status, cookies).
 */
export function offeredToEveryone(reply: FastifyReply): boolean {
  const offered = (reply as unknown as Offered)[offer];
  return offered !== undefined && offered.stillHolds === undefined;
}

function eligible(request: FastifyRequest): boolean {
  return (
    request.method === "GET" &&
    request.routeOptions.config?.locale !== undefined &&
    !isAjax(request) &&
    acceptsGzip(request.headers["accept-encoding"])
  );
}

/** The answer depends on the origin (links in the page), the address with its query, and the cookies. */
const keyOf = (request: FastifyRequest) =>
  `${request.protocol}://${request.host}${request.url}\n${request.headers.cookie ?? ""}`;

/** A request a kept answer may go to, once its check is asked */
interface Use {
  request: FastifyRequest;
  reply: FastifyReply;
  done: () => void;
  key: string;
  answer: ReadyAnswer;
  /** The check's database part, if it has one */
  stored: StillHolds["stored"];
}

/**
 * Written as it was kept: the route, the other hooks and Fastify's own sending are skipped
 * (the request is still logged, and onResponse hooks run, on finish).
 */
function send(reply: FastifyReply, answer: ReadyAnswer): void {
  reply.hijack();
  reply.raw.writeHead(200, answer.headers);
  reply.raw.end(answer.body);
}

export interface ReadyAnswers {
  /** Sends kept answers: registered before every other onRequest hook, which they skip. */
  serve(app: FastifyInstance): void;
  /** Keeps offered answers: registered after the cookie and compress plugins, whose onSend hooks must have run. */
  keep(app: FastifyInstance): void;
}

export function readyAnswers({
  ttlMs = 1000,
  personalTtlMs = 60_000,
  maxEntries = 1000,
  now = Date.now,
  commitMark = () => undefined,
}: ReadyAnswersOptions = {}): ReadyAnswers {
  const answers = new Map<string, ReadyAnswer>();
  let closing = false;

  return {
    serve(app) {
      app.decorateReply("keepReady", function keepReady(this: FastifyReply, stillHolds?: StillHolds) {
        (this as unknown as Offered)[offer] = { stillHolds };
      });

      /**
       * Kept answers go out together, once the turn of the event loop that read their requests
       * has handled all its network input (setImmediate): every response of the turn is
       * written in one run, and one reading of the commit mark serves every check. Read after
       * the last of the requests was, it shows every commit made before any of them was sent.
       */
      let waiting: Use[] = [];
      const sendWaiting = () => {
        const batch = waiting;
        waiting = [];
        let mark: string | undefined;
        let markRead = false;
        for (const use of batch) {
          if (!use.stored) {
            send(use.reply, use.answer);
            continue;
          }
          if (!markRead) {
            mark = commitMark();
            markRead = true;
          }
          if (mark !== undefined && mark === use.answer.heldAt) send(use.reply, use.answer);
          // Taken before the check reads: a commit landing while it runs gives the next use
          // another mark, and so another check.
          else askStored(use, use.stored, mark);
        }
      };
      const askStored = (use: Use, stored: NonNullable<StillHolds["stored"]>, mark: string | undefined) => {
        const { request, reply, done, answer } = use;
        let asked: Promise<boolean>;
        // Outside Fastify's hook runner now, which would have caught a throw.
        try {
          // The cookie plugin's own hook, which parses them, comes later.
          request.cookies ??= request.server.parseCookie(request.headers.cookie ?? "");
          asked = stored(request);
        } catch (error) {
          asked = Promise.reject(error);
        }
        asked.then(
          (holds) => {
            if (!holds) return refuse(use.key, answer, done);
            answer.heldAt = mark;
            send(reply, answer);
          },
          // The route answers, and says what went wrong in its own way.
          () => done(),
        );
      };
      const refuse = (key: string, answer: ReadyAnswer, done: () => void) => {
        // A newer answer kept under the key while this one waited stays.
        if (answers.get(key) === answer) answers.delete(key);
        done();
      };

      app.addHook("onRequest", (request, reply, done) => {
        if (closing || request.method !== "GET") return done();
        const key = keyOf(request);
        const answer = answers.get(key);
        // Its address was a page of one language when it was kept (eligible), so it still is;
        // what this request says of itself is asked here.
        if (!answer || isAjax(request) || !acceptsGzip(request.headers["accept-encoding"])) return done();
        if (answer.expires <= now()) {
          answers.delete(key);
          return done();
        }
        const check = answer.stillHolds;
        if (check?.meanwhile && !check.meanwhile()) return refuse(key, answer, done);
        if (waiting.push({ request, reply, done, key, answer, stored: check?.stored }) === 1)
          setImmediate(sendWaiting);
      });

      app.addHook("preClose", (done) => {
        closing = true;
        answers.clear();
        done();
      });
    },

    keep(app) {
      app.addHook("onSend", (request, reply, payload, done) => {
        const offered = (reply as unknown as Offered)[offer];
        if (!offered) return done(null, payload);
        const personal = request.headers.cookie !== undefined;
        const keep =
          !closing &&
          Buffer.isBuffer(payload) &&
          reply.statusCode === 200 &&
          reply.getHeader("set-cookie") === undefined &&
          reply.getHeader("content-encoding") === "gzip" &&
          // A page for a browser with cookies is kept only with a check that it still holds.
          (!personal || offered.stillHolds !== undefined) &&
          eligible(request);
        if (keep) {
          const headers: string[] = [];
          for (const [name, value] of Object.entries(reply.getHeaders())) {
            if (name === "content-length") continue;
            if (typeof value === "string" || typeof value === "number") headers.push(name, String(value));
          }
          headers.push("content-length", String(payload.length));
          const key = keyOf(request);
          answers.delete(key);
          answers.set(key, {
            headers,
            body: payload,
            expires: now() + (personal ? personalTtlMs : ttlMs),
            // A visitor's answer too is checked where the route gives a check (an answer of one second).
            stillHolds: offered.stillHolds,
          });
          while (answers.size > maxEntries) answers.delete(answers.keys().next().value as string);
        }
        done(null, payload);
      });
    },
  };
}
