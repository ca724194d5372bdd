import type { ContractRequestInput, ReceiptOutcome } from "../domain/contract-requests.ts";
import { contractLinkDays } from "../domain/contract-requests.ts";
import { formatPrice } from "../domain/money.ts";
import { shopTimeZone } from "../domain/shop-time-zone.ts";
import type { IsoDate } from "../domain/working-days.ts";
import { intlLocale, type Locale } from "../i18n/locales.ts";
import type { Translate } from "../i18n/translate.ts";
import { mailClosing, mailContact } from "./mail-closing.ts";
import { mailDate } from "./order-confirmation.ts";
import type { OutgoingMail } from "./outbox.ts";

/**
 * The mails of the public cancellation and withdrawal forms (ADR 0103): the receipt, sent at
 * the button's moment to the address typed (with the link that proves it, or what was not
 * found), and, once the link was used, the cancellation's confirmation with its end date
 * and, for an extraordinary notice, the request for customer service. A withdrawal's outcome
 * is the subscription's own withdrawn mail.
 */

const dateTimes = Object.fromEntries(
  Object.entries(intlLocale).map(([locale, tag]) => [
    locale,
    new Intl.DateTimeFormat(tag, { dateStyle: "full", timeStyle: "short", timeZone: shopTimeZone }),
  ]),
) as Record<Locale, Intl.DateTimeFormat>;

/** The moment of receipt as the locale writes it, on the shop's clock: "woensdag 2 december 2026 om 10:15". */
export function receivedText(at: string, locale: Locale): string {
  return dateTimes[locale].format(new Date(at));
}

/** What was sent, line by line, as the check page, the page after it and the mails show it. */
export function contractSummary(
  t: Translate,
  locale: Locale,
  request: ContractRequestInput,
): Array<{ label: string; value: string }> {
  const lines = [
    { label: t("contractForms.summary.name"), value: request.name },
    { label: t("contractForms.summary.email"), value: request.email },
    {
      label: t("contractForms.summary.contract"),
      value: request.contractRef
        ? t("contractForms.summary.contractNumber", { number: request.contractRef })
        : t("contractForms.summary.contractAddress", { email: request.email }),
    },
  ];
  if (request.kind === "withdraw") return lines;
  lines.push({
    label: t("contractForms.summary.notice"),
    value: t(`contractForms.notice.${request.notice ?? "ordinary"}`),
  });
  if (request.notice === "extraordinary") {
    lines.push({ label: t("contractForms.summary.reason"), value: request.reason ?? "" });
    lines.push({
      label: t("contractForms.summary.endOn"),
      value: request.askedEndOn ? mailDate(request.askedEndOn, locale) : "",
    });
  } else {
    lines.push({ label: t("contractForms.summary.endOn"), value: t("contractForms.summary.endOrdinary") });
  }
  return lines;
}

const summaryText = (t: Translate, locale: Locale, request: ContractRequestInput) =>
  contractSummary(t, locale, request)
    .map((line) => `${line.label}: ${line.value}`)
    .join("\n");

/** The subscription found for the address, as the mails name it. */
export interface FoundSubscription {
  id: string;
  planId: string;
  accountId: string | undefined;
}

/**
 * The mail at the button's moment, to the address typed, in the subscriber's language (or
 * the form's, when the address has none): what was received and when, and the outcome.
 */
export function contractReceivedMail(
  t: Translate,
  locale: Locale,
  request: ContractRequestInput & { receivedAt: string },
  outcome: ReceiptOutcome,
  subscription: FoundSubscription | undefined,
  links: { confirm: string | undefined; cancelForm: string },
): OutgoingMail {
  const kind = request.kind;
  const values = {
    name: request.name,
    received: receivedText(request.receivedAt, locale),
    plan: subscription ? t(`subscription.plans.${subscription.planId}.name`) : "",
    id: subscription?.id ?? "",
    days: contractLinkDays,
    link: links.confirm ?? "",
    cancelForm: links.cancelForm,
    email: mailContact(locale).email,
    phone: mailContact(locale).phone,
  };
  const endText = (endsOn: IsoDate | undefined) =>
    endsOn
      ? t("contractForms.mail.cancel.endsOn", { end: mailDate(endsOn, locale) })
      : t("contractForms.mail.cancel.endsWhenConfirmed");
  const outcomeText = (() => {
    switch (outcome.kind) {
      case "link":
        if (kind === "withdraw")
          return t("contractForms.mail.withdraw.link", {
            ...values,
            deadline: mailDate(outcome.deadline ?? "", locale),
          });
        return [
          t("contractForms.mail.cancel.link", { ...values, ends: endText(outcome.endsOn) }),
          ...(request.notice === "extraordinary" ? ["", t("contractForms.mail.cancel.extraordinary")] : []),
        ].join("\n");
      case "already":
        return t("contractForms.mail.cancel.already", { ...values, end: mailDate(outcome.endsOn, locale) });
      case "late":
        return t("contractForms.mail.withdraw.late", {
          ...values,
          deadline: mailDate(outcome.deadline, locale),
        });
      case "none":
        return t(request.contractRef ? "contractForms.mail.noneWithNumber" : "contractForms.mail.none", {
          ...values,
          number: request.contractRef ?? "",
        });
    }
  })();
  return {
    kind: `contract-${kind}-received`,
    ...(subscription?.accountId ? { accountId: subscription.accountId } : {}),
    locale,
    to: request.email,
    subject: t(`contractForms.mail.${kind}.subject`),
    text: [
      t("contractForms.mail.greeting", { name: request.name }),
      "",
      t(`contractForms.mail.${kind}.received`, values),
      "",
      summaryText(t, locale, request),
      "",
      outcomeText,
      "",
      ...mailClosing(t, locale),
    ].join("\n"),
  };
}

/** The link was used: the notice holds, the subscription ends on `endsOn`. Sent once, with that change. */
export function contractCancelledMail(
  t: Translate,
  locale: Locale,
  request: ContractRequestInput & { receivedAt: string },
  subscription: FoundSubscription,
  endsOn: IsoDate,
  refundCents = 0,
): OutgoingMail {
  const values = {
    name: request.name,
    plan: t(`subscription.plans.${subscription.planId}.name`),
    id: subscription.id,
    email: request.email,
    received: receivedText(request.receivedAt, locale),
    end: mailDate(endsOn, locale),
    asked: request.askedEndOn ? mailDate(request.askedEndOn, locale) : "",
    refund: formatPrice(refundCents, locale),
  };
  return {
    kind: "subscription-cancelled",
    ...(subscription.accountId ? { accountId: subscription.accountId } : {}),
    locale,
    to: request.email,
    subject: t("contractForms.mail.cancelled.subject", values),
    text: [
      t("contractForms.mail.cancelled.body", values),
      ...(refundCents > 0 ? ["", t("contractForms.mail.cancelled.refund", values)] : []),
      ...(request.notice === "extraordinary"
        ? ["", t("contractForms.mail.cancelled.extraordinary", values)]
        : []),
      "",
      summaryText(t, locale, request),
      "",
      ...mailClosing(t, locale),
    ].join("\n"),
  };
}

/**
 * An extraordinary notice for customer service, who judge its reason (whether it ends the
 * contract earlier, with money back, is theirs to decide); in Dutch, as the staff read it.
 */
export function extraordinaryNoticeMail(
  t: Translate,
  supportEmail: string,
  request: ContractRequestInput & { receivedAt: string },
  subscription: FoundSubscription,
  endsOn: IsoDate,
  confirmedAt: Date,
): OutgoingMail {
  return {
    kind: "contract-extraordinary-notice",
    locale: "nl",
    to: supportEmail,
    replyTo: request.email,
    subject: t("contractForms.mail.support.subject", { id: subscription.id }),
    text: [
      t("contractForms.mail.support.body", {
        id: subscription.id,
        received: receivedText(request.receivedAt, "nl"),
        confirmed: receivedText(confirmedAt.toISOString(), "nl"),
        end: mailDate(endsOn, "nl"),
        language: request.locale,
      }),
      "",
      summaryText(t, "nl", request),
      "",
    ].join("\n"),
  };
}
