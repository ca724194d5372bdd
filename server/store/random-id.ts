import { randomBytes } from "node:crypto";

/** 128 random bits as 22 URL-safe characters: an id that is also a bearer secret, never guessable. */
export function randomId(): string {
  return randomBytes(16).toString("base64url");
}

/** Whether text has the shape of randomId(): anything else is refused before a query runs. */
export function isRandomId(value: unknown): value is string {
  return typeof value === "string" && /^[\w-]{22}$/.test(value);
}
