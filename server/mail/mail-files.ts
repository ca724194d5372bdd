import { unlink } from "node:fs/promises";
import { resolve } from "node:path";

/**
 * The .eml files the shop writes when it has no SMTP server (SMTP_URL unset): one per
 * outbox row, in DATA_DIR/mail. What the outbox erases (a mail past MAIL_BODY_DAYS, the
 * mails of a deleted account) goes from this folder too, by the same name.
 */

/** What names a mail's file: kept in the outbox row after its content is erased. */
export interface MailFileOf {
  id: number;
  kind: string;
  created_at: string;
}

export function mailFolderIn(dataDir: string): string {
  return resolve(dataDir, "mail");
}

/** The folder mails are written to, or undefined when they go out over SMTP and no file is kept. */
export function mailFolder(config: { smtpUrl: string | undefined; dataDir: string }): string | undefined {
  return config.smtpUrl ? undefined : mailFolderIn(config.dataDir);
}

/** The file a mail is written to: one per outbox row, so writing it again replaces it. */
export function emlFileName(mail: MailFileOf): string {
  const stamp = mail.created_at.replace(/[^0-9]/g, "").slice(0, 14);
  return `${stamp}-${String(mail.id).padStart(6, "0")}-${mail.kind.replace(/[^a-z0-9-]/gi, "_")}.eml`;
}

/**
 * Deletes the files of these mails, and any partial file a delivery left half-written. A
 * file that is not there (never written, or SMTP in use) is no error; any other failure
 * throws, after trying every file.
 */
export async function removeMailFiles(
  folder: string | undefined,
  mails: readonly MailFileOf[],
): Promise<void> {
  if (!folder) return;
  const failures: unknown[] = [];
  for (const mail of mails) {
    const target = resolve(folder, emlFileName(mail));
    for (const file of [target, `${target}.partial`]) {
      await unlink(file).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT") failures.push(err);
      });
    }
  }
  if (failures.length > 0) throw failures[0];
}
