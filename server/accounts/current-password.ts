import type { FastifyReply, FastifyRequest } from "fastify";
import { verifyPassword } from "../domain/password-hash.ts";
import type { FieldError } from "../forms/form.ts";
import type { Services } from "../http/services.ts";
import type { Account } from "../store/account-repository.ts";
import { type RefusalNotice, refusalNotice } from "./password-back-off.ts";

/**
 * Why the page's form comes back instead of doing what was asked: the password was not
 * checked (429, the wait and the way to a new password above the form), or it was wrong
 * (422, an error on its field). The page shows `form` as its form's errors and notice.
 */
export interface CurrentPasswordProblem {
  status: 422 | 429;
  form: { errors: FieldError[]; refusal?: RefusalNotice };
}

/**
 * The signed-in account's password, as the account pages ask for it before a deletion or a
 * change: through the same back-off as signing in, so a borrowed session is no way around it.
 * Undefined when it is right; otherwise what the form shows, the same on every such page. On
 * a refusal Retry-After is set.
 */
export async function checkCurrentPassword(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  account: Account,
  password: string,
): Promise<CurrentPasswordProblem | undefined> {
  const locale = request.locale;
  const attempt = await services.passwordBackOff.attempt(request, reply, account.email);
  if (attempt.kind === "refused") {
    const forgotten = services.i18n.routes.pathFor("passwordForgotten", locale);
    const refusal = refusalNotice(services.i18n.t[locale], attempt, forgotten);
    return { status: 429, form: { errors: [], refusal } };
  }
  if (attempt.delayMs > 0) await services.sleep(attempt.delayMs);
  if (!(await verifyPassword(password, account.passwordHash))) {
    const wrong = services.i18n.t[locale]("account.settings.wrongPassword");
    return { status: 422, form: { errors: [{ field: "currentPassword", message: wrong }] } };
  }
  await attempt.right();
  return undefined;
}
