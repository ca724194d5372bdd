import type { FastifyReply, FastifyRequest } from "fastify";
import { verifyPassword } from "../domain/password-hash.ts";
import type { Services } from "../http/services.ts";
import type { Account } from "../store/account-repository.ts";
import { type RefusalNotice, refusalNotice } from "./password-back-off.ts";

export type CurrentPasswordCheck =
  | { kind: "right" }
  | { kind: "wrong" }
  | { kind: "refused"; refusal: RefusalNotice };

/**
 * The signed-in account's password, as the account pages ask for it before a deletion or a
 * change: through the same back-off as signing in, so a borrowed session is no way around it.
 * On a refusal Retry-After is set and the notice says how long to wait.
 */
export async function checkCurrentPassword(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  account: Account,
  password: string,
): Promise<CurrentPasswordCheck> {
  const attempt = await services.passwordBackOff.attempt(request, reply, account.email);
  if (attempt.kind === "refused") {
    const locale = request.locale;
    const forgotten = services.i18n.routes.pathFor("passwordForgotten", locale);
    return { kind: "refused", refusal: refusalNotice(services.i18n.t[locale], attempt, forgotten) };
  }
  if (attempt.delayMs > 0) await services.sleep(attempt.delayMs);
  if (!(await verifyPassword(password, account.passwordHash))) return { kind: "wrong" };
  await attempt.right();
  return { kind: "right" };
}
