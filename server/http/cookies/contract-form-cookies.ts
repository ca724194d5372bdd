import type { FastifyReply, FastifyRequest } from "fastify";
import type { ContractRequestKind } from "../../domain/contract-requests.ts";
import type { FormValues } from "../../forms/form.ts";
import { cookieName, cookieSecure } from "./cookie-names.ts";

/**
 * The public cancellation and withdrawal forms carry what was typed from step to step in a
 * signed cookie of the browser's own, so each step is a plain page after a redirect
 * (JavaScript off): the draft, from the form to the check page with its button; then what was
 * sent and when, for the page after the button. Nothing is stored before the button.
 * base64url JSON: the form's limits keep it under a cookie's 4 kB.
 */
const maxAgeSeconds = 30 * 60;

export type ContractCookie = "draft" | "sent";

export interface SentRequest {
  values: FormValues;
  receivedAt: string;
}

const nameOf = (on: FastifyRequest | FastifyReply, kind: ContractRequestKind, which: ContractCookie) =>
  cookieName(on, `contract-${kind}-${which}`);

export function writeContractCookie(
  reply: FastifyReply,
  kind: ContractRequestKind,
  which: ContractCookie,
  value: FormValues | SentRequest,
): void {
  reply.setCookie(nameOf(reply, kind, which), Buffer.from(JSON.stringify(value)).toString("base64url"), {
    signed: true,
    httpOnly: true,
    sameSite: "lax",
    secure: cookieSecure(reply),
    path: "/",
    maxAge: maxAgeSeconds,
  });
}

export function clearContractCookie(
  reply: FastifyReply,
  kind: ContractRequestKind,
  which: ContractCookie,
): void {
  reply.clearCookie(nameOf(reply, kind, which), { path: "/", secure: cookieSecure(reply) });
}

/** The cookie's value; undefined when there is none, it expired or was tampered with. */
export function readContractCookie<T extends FormValues | SentRequest>(
  request: FastifyRequest,
  kind: ContractRequestKind,
  which: ContractCookie,
): T | undefined {
  const raw = request.cookies[nameOf(request, kind, which)];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(unsigned.value, "base64url").toString("utf8"));
    return value && typeof value === "object" ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
