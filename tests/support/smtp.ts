import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A mail as a real SMTP server received it: envelope, decoded headers and text body. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  headers: Map<string, string>;
  text: string;
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Stops accepting connections, as a mail server that is down. */
  close(): Promise<void>;
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_whole, _charset: string, kind: string, text: string) => {
      if (kind.toUpperCase() === "B") return Buffer.from(text, "base64").toString("utf8");
      const bytes = text
        .replace(/_/g, " ")
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      return Buffer.from(bytes, "latin1").toString("utf8");
    });
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Enough MIME to read what nodemailer writes for a text-only mail; tests need no more. */
export function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const encoding = headers.get("content-transfer-encoding")?.toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
        : body;
  return { headers, text: text.replace(/\r\n/g, "\n") };
}

/** A real SMTP server (the smtp-server package) in the test process, on a free or given port. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const envelope = session.envelope;
        received.push({
          envelope: {
            from: envelope.mailFrom ? envelope.mailFrom.address : "",
            to: envelope.rcptTo.map((r) => r.address),
          },
          ...parseMail(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
