import { createHash } from "node:crypto";

/** A short name for something a page shows (an account's addresses, say), for a kept page's key. */
export function digest(value: string): string {
  return createHash("sha256").update(value).digest("base64url").slice(0, 22);
}
