import { createHash, randomBytes } from "node:crypto";

/**
 * The secret in a link the shop mails (confirming an address): 256 random bits, URL-safe.
 * Only its hash is stored, so the table alone opens no link.
 */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashLinkToken(token) };
}

export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether text has the shape of a token from newLinkToken: anything else is refused unread. */
export function isLinkToken(value: unknown): value is string {
  return typeof value === "string" && /^[\w-]{43}$/.test(value);
}
