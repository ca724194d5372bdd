import type { Kysely } from "kysely";
import {
  type ContractRequestInput,
  cancelReceipt,
  contractRequestsPerAddressPerHour,
  type ReceiptOutcome,
  receivedOn,
  withdrawReceipt,
} from "../domain/contract-requests.ts";
import type { I18n } from "../i18n/index.ts";
import type { Locale } from "../i18n/locales.ts";
import { contractReceivedMail } from "../mail/contract-request-mails.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { emailKey } from "../store/account-repository.ts";
import type { ContractRequest, ContractRequestRepository } from "../store/contract-request-repository.ts";
import { newLinkToken } from "../store/link-token.ts";
import type { Schema } from "../store/schema.ts";
import type { Subscription, SubscriptionRepository } from "../store/subscription-repository.ts";

export interface ContractDeps {
  db: Kysely<Schema>;
  subscriptions: SubscriptionRepository;
  requests: ContractRequestRepository;
  i18n: I18n;
}

export interface ContractLinks {
  /** The link that proves the address, in the mail's language. */
  confirm: (token: string, locale: Locale) => string;
  /** The cancellation form, offered when a withdrawal came too late. */
  cancelForm: (locale: Locale) => string;
}

export type ReceiveResult =
  | { kind: "received"; request: ContractRequest }
  /** The address sent contractRequestsPerAddressPerHour already: nothing stored, nothing mailed. */
  | { kind: "over-limit" };

/**
 * The account of the address typed and its subscription (when a number was typed, only the
 * subscription with that number): the mail goes to that address, so only its own
 * subscription is ever named in it.
 */
async function subscriptionOf(
  deps: ContractDeps,
  trx: Kysely<Schema>,
  request: ContractRequestInput,
): Promise<{ accountId: string | undefined; subscription: Subscription | undefined }> {
  const account = await trx
    .selectFrom("accounts")
    .select("id")
    .where("email_key", "=", emailKey(request.email))
    .executeTakeFirst();
  const subscription = account ? await deps.subscriptions.forAccount(account.id, trx) : undefined;
  const named = request.contractRef === undefined || subscription?.id === request.contractRef;
  return { accountId: account?.id, subscription: named ? subscription : undefined };
}

/**
 * A cancellation or withdrawal received at `at` (the button's moment): recorded with its one
 * mail in one transaction, whatever the address. With a subscription it can end, the mail
 * carries a single-purpose link (its token stored hashed) that proves the address; else it
 * says what was found. The caller answers every address alike.
 */
export async function receiveContractRequest(
  deps: ContractDeps,
  request: ContractRequestInput,
  at: Date,
  links: ContractLinks,
): Promise<ReceiveResult> {
  return deps.db.transaction().execute(async (trx) => {
    const recent = await deps.requests.countFrom(
      trx,
      request.kind,
      request.email,
      new Date(at.getTime() - 3_600_000),
    );
    if (recent >= contractRequestsPerAddressPerHour) return { kind: "over-limit" };
    const { accountId, subscription } = await subscriptionOf(deps, trx, request);
    const outcome: ReceiptOutcome =
      request.kind === "cancel" ? cancelReceipt(subscription) : withdrawReceipt(subscription, receivedOn(at));
    const link = outcome.kind === "link" ? newLinkToken() : undefined;
    const stored = await deps.requests.insert(
      trx,
      request,
      // The address's account, even without a subscription: deleting it takes the request along.
      { subscriptionId: subscription?.id, accountId },
      link?.hash,
      at,
    );
    // The subscriber's language when there is one; the form's otherwise.
    const locale = (subscription?.locale ?? request.locale) as Locale;
    await enqueueMail(
      trx,
      contractReceivedMail(deps.i18n.t[locale], locale, stored, outcome, subscription, {
        confirm: link ? links.confirm(link.token, locale) : undefined,
        cancelForm: links.cancelForm(locale),
      }),
      at,
    );
    return { kind: "received", request: stored };
  });
}
