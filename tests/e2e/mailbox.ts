import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "@playwright/test";

/**
 * The shop's mailbox in the journeys: without SMTP every mail it sends is an .eml file in the
 * data folder (data/mail/), as a shopper's mail program would receive it.
 */
const mailDir = () => join(process.env.E2E_DATA_DIR ?? "", "mail");

/** Quoted-printable as mail programs read it: soft line breaks joined, =XX decoded as UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === "=" ? joined.slice(i + 1, i + 3) : "";
    if (/^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i] ?? ""));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The newest mail of `kind` to `address`, decoded; waits for the shop's sender to write it. */
export async function mailTo(address: string, kind: string): Promise<string> {
  let found = "";
  await expect
    .poll(
      () => {
        // Until the shop sends its first mail the folder does not exist: nothing yet, poll on.
        if (!existsSync(mailDir())) return false;
        const files = readdirSync(mailDir(), { withFileTypes: true })
          .filter((f) => f.isFile() && f.name.endsWith(`-${kind}.eml`))
          .map((f) => f.name)
          .sort()
          .reverse();
        for (const name of files) {
          const text = decodeQuotedPrintable(readFileSync(join(mailDir(), name), "utf8"));
          if (new RegExp(`^To: .*${address.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "mi").test(text)) {
            found = text;
            return true;
          }
        }
        return false;
      },
      { message: `a ${kind} mail to ${address}`, timeout: 10_000 },
    )
    .toBe(true);
  return found;
}

/** The path of the first link in the mail that leads to the shop. */
export function shopLink(mail: string, pathPattern: RegExp): string {
  for (const [url] of mail.matchAll(/https?:\/\/[^\s<>"]+/g)) {
    const path = new URL(url).pathname;
    if (pathPattern.test(path)) return path;
  }
  throw new Error(`no link matching ${pathPattern} in the mail`);
}
