import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyReply, FastifyRequest } from "fastify";
import { signInBackOff, signInDelayMs } from "../domain/session-rules.ts";
import type { CountedAmount } from "../http/limits/amount-counters.ts";
import { retryText } from "../http/limits/client-limits.ts";
import type { SharedCounters } from "../http/limits/shared-counters.ts";
import type { Translate } from "../i18n/translate.ts";
import { emailKey } from "../store/account-repository.ts";

/** A password that may be checked now, after the wait; what the check found is told back. */
export interface AllowedAttempt {
  kind: "allowed";
  delayMs: number;
  /** The password was right: the account's owner is not held back by their own success. */
  right(): Promise<void>;
  /** No password was checked after all (the database could not answer): the attempt is given back. */
  unchecked(): Promise<void>;
}

/**
 * A password that is not checked: too many attempts from this client (for this account, or
 * for any), or for this account from everywhere (`forAccount`: then "password forgotten" is
 * the way in). Retry-After is set.
 */
export interface RefusedAttempt {
  kind: "refused";
  retryAfter: number;
  forAccount: boolean;
}

/**
 * Every check of an account's password goes through here first: signing in, and the account
 * pages that ask for the current password (deleting the account, a new e-mail address, a new
 * password). An attempt is counted before its password is checked, as one added to a running
 * total in one step with reading it (amount-counters.ts), so parallel guesses cannot all pass
 * one reading: at most the allowance is ever checked. Counted per account and client address
 * together (an attacker elsewhere cannot lock the owner out), per client (one address
 * guessing many accounts), and per account from everywhere, far higher (guesses spread over
 * many addresses). Refused attempts are given back, so the counts hold only checked passwords.
 */
export interface PasswordBackOff {
  attempt(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
  ): Promise<AllowedAttempt | RefusedAttempt>;
}

/** What an attempt counted found; a store that does not answer counted nothing, and the password is checked. */
const countOf = (counted: CountedAmount | undefined) => ({
  count: counted?.total ?? 0,
  secondsLeft: Math.max(1, Math.ceil((counted?.ttlMs ?? 0) / 1000)),
});

export function passwordBackOff(counters: SharedCounters): PasswordBackOff {
  const attempts = counters.amounts("password", signInBackOff.windowMs);
  const add = async (key: string) => countOf(await attempts.add(key, 1));
  return {
    async attempt(request, reply, email) {
      // Clients as the rate limits see them: an IPv6 address per /64.
      const client = normalizeIP(request.ip);
      const account = emailKey(email);
      const keys = {
        accountAndClient: `account-client:${account}:${client}`,
        client: `client:${client}`,
        account: `account:${account}`,
      };
      const giveBack = (...which: string[]) => Promise.all(which.map((key) => attempts.add(key, -1)));
      const refuse = (secondsLeft: number, forAccount: boolean): RefusedAttempt => {
        reply.header("retry-after", String(secondsLeft));
        request.log.info({ forAccount }, "password attempts over the limit: not checked");
        return { kind: "refused", retryAfter: secondsLeft, forAccount };
      };

      const [byAccountAndClient, byClient] = await Promise.all([
        add(keys.accountAndClient),
        add(keys.client),
      ]);
      const overAccountAndClient = byAccountAndClient.count > signInBackOff.perAccountAndClient;
      const overClient = byClient.count > signInBackOff.perClient;
      if (overAccountAndClient || overClient) {
        await giveBack(keys.accountAndClient, keys.client);
        return refuse(
          Math.max(
            overAccountAndClient ? byAccountAndClient.secondsLeft : 0,
            overClient ? byClient.secondsLeft : 0,
          ),
          false,
        );
      }
      // Counted from everywhere only once this client may try: a client refused above
      // cannot push the account to its ceiling and so lock its owner out.
      const byAccount = await add(keys.account);
      if (byAccount.count > signInBackOff.perAccount) {
        await giveBack(keys.accountAndClient, keys.client, keys.account);
        return refuse(byAccount.secondsLeft, true);
      }
      // The failures before this one, by this client: the owner is not slowed by others' guesses.
      const before = Math.max(byAccountAndClient.count, byClient.count) - 1;
      return {
        kind: "allowed",
        delayMs: signInDelayMs(before),
        async right() {
          // Their own typos are forgiven; the client's and the account's counts keep
          // everyone else's failures and lose only this attempt, so signing in to an account
          // of one's own between guesses frees no guesses at other accounts.
          await Promise.all([
            attempts.forget(keys.accountAndClient),
            attempts.add(keys.client, -1),
            attempts.add(keys.account, -1),
          ]);
        },
        async unchecked() {
          await giveBack(keys.accountAndClient, keys.client, keys.account);
        },
      };
    },
  };
}

/** What a refusal says above the form, with the way to a new password when the account is closed to guessing. */
export interface RefusalNotice {
  notice: string;
  noticeLink?: { href: string; text: string };
}

export function refusalNotice(t: Translate, refused: RefusedAttempt, forgottenHref: string): RefusalNotice {
  const retry = retryText(t, refused.retryAfter);
  if (!refused.forAccount) return { notice: t("account.signIn.tooMany", { retry }) };
  return {
    notice: t("account.signIn.tooManyForAccount", { retry }),
    noticeLink: { href: forgottenHref, text: t("account.signIn.forgot") },
  };
}
