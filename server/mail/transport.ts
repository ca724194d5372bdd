import { rename } from "node:fs/promises";
import { resolve } from "node:path";
import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import { makePrivateFolder, writePrivateFile } from "../store/private-files.ts";
import type { OutboxTable } from "../store/schema.ts";
import { emlFileName, mailFolderIn, removeMailFiles } from "./mail-files.ts";

/** An outbox row as the sender hands it over: everything needed to build the message. */
export type QueuedMail = Pick<
  OutboxTable,
  "kind" | "locale" | "to_address" | "reply_to" | "subject" | "text_body" | "html_body" | "created_at"
> & { id: number };

/** Delivers one mail, or throws. Kept apart from the sender so SMTP and files are interchangeable. */
export interface MailTransport {
  /** "smtp://mail.example.nl:587" (without credentials) or "files in data/mail", for logs. */
  readonly description: string;
  deliver(mail: QueuedMail): Promise<void>;
  /**
   * Removes what delivering left with the shop (an .eml file), for a mail whose content
   * was erased while it was being delivered. Absent where nothing stays (SMTP).
   */
  forget?(mail: QueuedMail): Promise<void>;
  close(): void;
}

/** The domain of an address such as "Fotohoek <klantenservice@fotohoek.nl>", for Message-IDs. */
function domainOf(address: string): string {
  return /@([^\s>]+)/.exec(address)?.[1] ?? "localhost";
}

/**
 * The message for a queued mail. Its Message-ID is derived from the outbox row, so if a
 * mail ever is delivered twice (an instance dying between sending and recording it),
 * mail clients see one message.
 */
export function messageOf(mail: QueuedMail, from: string): Mail.Options {
  return {
    from,
    to: mail.to_address,
    ...(mail.reply_to ? { replyTo: mail.reply_to } : {}),
    subject: mail.subject,
    text: mail.text_body,
    ...(mail.html_body ? { html: mail.html_body } : {}),
    date: new Date(mail.created_at),
    messageId: `<outbox-${mail.id}.${mail.kind}@${domainOf(from)}>`,
    headers: { "Content-Language": mail.locale, "X-Fotohoek-Mail": mail.kind },
    // A mail's content is its stored text only, never a file or URL the text might name.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

export function smtpTransport(url: string, from: string): MailTransport {
  const address = new URL(url);
  const secure = address.protocol === "smtps:";
  const transport = nodemailer.createTransport({
    host: address.hostname,
    port: address.port ? Number(address.port) : secure ? 465 : 587,
    secure,
    ...(address.username
      ? { auth: { user: decodeURIComponent(address.username), pass: decodeURIComponent(address.password) } }
      : {}),
    // Short timeouts: a hanging server must not hold a mail's claim (or a shutdown) for long.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    description: `${address.protocol}//${address.host}`,
    async deliver(mail) {
      await transport.sendMail(messageOf(mail, from));
    },
    close: () => transport.close(),
  };
}

/** Without SMTP (the embedded default) each mail becomes an .eml file that any mail program opens. */
export function fileTransport(dir: string, from: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    description: `files in ${dir}`,
    async deliver(mail) {
      const info = await composer.sendMail(messageOf(mail, from));
      // Mails hold shoppers' addresses and questions: private to the shop's user.
      await makePrivateFolder(dir);
      const target = resolve(dir, emlFileName(mail));
      const partial = `${target}.partial`;
      await writePrivateFile(partial, info.message as Buffer);
      await rename(partial, target);
    },
    forget: (mail) => removeMailFiles(dir, [mail]),
    close: () => composer.close(),
  };
}

export function mailTransport(config: { smtpUrl: string | undefined; dataDir: string; mailFrom: string }) {
  return config.smtpUrl
    ? smtpTransport(config.smtpUrl, config.mailFrom)
    : fileTransport(mailFolderIn(config.dataDir), config.mailFrom);
}
