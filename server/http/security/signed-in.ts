import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Session, SessionRepository } from "../../store/session-repository.ts";
import { readSessionToken } from "../cookies/session-cookie.ts";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The session this browser is signed in with, and its account; undefined when it is not
     * signed in (no cookie, a tampered one, or a session that ended). Asked of the database
     * once per request, and only for a browser that sends a session cookie. Throws when the
     * database cannot answer.
     */
    signedIn(): Promise<Session | undefined>;
    /** signedIn()'s answer once asked; kept per request. */
    signedInAnswer: Promise<Session | undefined> | undefined;
  }
}

export function registerSignedIn(app: FastifyInstance, sessions: SessionRepository, now: () => Date): void {
  app.decorateRequest("signedInAnswer", undefined);
  app.decorateRequest("signedIn", function signedIn(this: FastifyRequest) {
    if (!this.signedInAnswer) {
      const token = readSessionToken(this);
      this.signedInAnswer = token ? sessions.resolve(token, now()) : Promise.resolve(undefined);
    }
    return this.signedInAnswer;
  });
}

/** Whether the browser says it is signed in, without asking the database (a page's header link). */
export function claimsSession(request: FastifyRequest): boolean {
  return readSessionToken(request) !== undefined;
}
