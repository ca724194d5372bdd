// The soak's closing figures, and the reasons it fails, if any.
import type { Tally } from "./tally.ts";

export interface Findings {
  seconds: number;
  shoppers: number;
  /** When B was killed and (if it was) back, in seconds from the start. */
  killedAt: number | undefined;
  restartedAt: number | undefined;
  ordersFound: number;
  messagesFound: number;
  photosFound: number;
  /** Exit codes after SIGTERM, by instance. */
  exits: Map<string, number | null>;
  /** Lines each instance logged at level error or fatal. */
  errorLogs: Map<string, string[]>;
  /** Why B did not come back, when it was to be restarted and did not. */
  restartError: string | undefined;
}

/** Why the run failed; empty when it held. */
export function failures(tally: Tally, findings: Findings): string[] {
  const reasons: string[] = [];
  const missingOrders = tally.ordersPlaced.size - findings.ordersFound;
  if (missingOrders > 0) reasons.push(`${missingOrders} placed order(s) missing from the database`);
  const missingMessages = tally.messagesAccepted.size - findings.messagesFound;
  if (missingMessages > 0) reasons.push(`${missingMessages} accepted contact message(s) missing`);
  const missingPhotos = tally.photosAccepted.size - findings.photosFound;
  if (missingPhotos > 0) reasons.push(`${missingPhotos} accepted photo(s) missing`);
  if (tally.statuses["5xx"] > 0) reasons.push(`${tally.statuses["5xx"]} answer(s) of 5xx`);
  if (tally.connectionFailureCount > 0)
    reasons.push(`${tally.connectionFailureCount} request(s) without an answer from a live instance`);
  if (tally.unexpectedCount > 0) reasons.push(`${tally.unexpectedCount} unexpected answer(s) in journeys`);
  if (findings.restartError) reasons.push(`B did not start again: ${findings.restartError}`);
  for (const [name, code] of findings.exits) {
    if (code !== 0) reasons.push(`instance ${name} exited with ${code} after SIGTERM`);
  }
  return reasons;
}

const row = (label: string, value: string) => `${label.padEnd(34)}${value}`;

export function report(tally: Tally, findings: Findings, reasons: string[]): string {
  const at = (seconds: number | undefined) => (seconds === undefined ? "never" : `${seconds.toFixed(1)} s`);
  const perInstance = [...tally.perInstance].map(([name, n]) => `${name} ${n}`).join(", ");
  const s = tally.statuses;
  const lines = [
    "",
    row("duration", `${findings.seconds.toFixed(1)} s, ${findings.shoppers} shoppers`),
    row(
      "instance B",
      `killed (SIGKILL) at ${at(findings.killedAt)}, ` +
        (findings.restartedAt === undefined ? "not started again" : `back at ${at(findings.restartedAt)}`),
    ),
    row(
      "requests",
      `${tally.requests} (${perInstance}), ${(tally.requests / findings.seconds).toFixed(1)} per second`,
    ),
    row("status", `2xx ${s["2xx"]} · 3xx ${s["3xx"]} · 4xx ${s["4xx"]} · 429 ${s["429"]} · 5xx ${s["5xx"]}`),
    row("5xx outside the killed instance", String(s["5xx"])),
    row("lost with the killed instance", String(tally.lost)),
    row("no answer from a live instance", String(tally.connectionFailureCount)),
    row("unexpected answers", String(tally.unexpectedCount)),
  ];
  for (const [name, c] of tally.journeys) {
    lines.push(
      row(`journeys: ${name}`, `${c.done} done, ${c.limited} met a 429, ${c.lost} lost, ${c.failed} failed`),
    );
  }
  lines.push(
    row(
      "orders",
      `${tally.ordersConfirmed.size} confirmed (thank-you page seen), ${tally.ordersPlaced.size} placed, ` +
        `${findings.ordersFound} of ${tally.ordersPlaced.size} found in the database`,
    ),
    row("contact messages", `${tally.messagesAccepted.size} accepted, ${findings.messagesFound} found`),
    row("photos", `${tally.photosAccepted.size} accepted, ${findings.photosFound} found (row and file)`),
    row(
      "stopped with SIGTERM",
      [...findings.exits].map(([name, code]) => `${name} exited ${code ?? "by a signal"}`).join(", "),
    ),
  );
  lines.push(
    row(
      "errors logged",
      [...findings.errorLogs].map(([name, logged]) => `${name} ${logged.length}`).join(", "),
    ),
  );
  const logged = [...findings.errorLogs].flatMap(([name, lines]) =>
    lines.slice(0, 3).map((line) => `${name} logged ${line.slice(0, 300)}`),
  );
  const examples = [...tally.serverErrors, ...tally.connectionFailures, ...tally.unexpected, ...logged];
  if (examples.length > 0) lines.push("", "examples:", ...examples.map((e) => `  ${e}`));
  lines.push("", reasons.length === 0 ? "PASS" : `FAIL: ${reasons.join("; ")}`);
  return lines.join("\n");
}
