// What the soak counts while it runs; read out at the end by scripts/soak/report.ts.

export type StatusClass = "2xx" | "3xx" | "4xx" | "429" | "5xx";
export type JourneyOutcome = "done" | "limited" | "lost" | "failed";

/** Enough examples to see what went wrong without flooding the report. */
const maxSamples = 10;

export class Tally {
  requests = 0;
  readonly perInstance = new Map<string, number>();
  readonly statuses: Record<StatusClass, number> = { "2xx": 0, "3xx": 0, "4xx": 0, "429": 0, "5xx": 0 };
  /** Examples of answers of 500 and up, e.g. "A POST /winkelwagen/overzicht 500". */
  readonly serverErrors: string[] = [];
  /** Requests to the killed instance that failed after it was killed. */
  lost = 0;
  /** Requests that failed without an answer, to an instance that was not killed: examples. */
  readonly connectionFailures: string[] = [];
  connectionFailureCount = 0;
  /** Answers a journey did not expect (a refused form, a missing token, …). */
  readonly unexpected: string[] = [];
  unexpectedCount = 0;
  readonly journeys = new Map<string, Record<JourneyOutcome, number>>();
  /** Order numbers the shop redirected to after "place order". */
  readonly ordersPlaced = new Set<string>();
  /** Of those, the ones whose thank-you page showed the number. */
  readonly ordersConfirmed = new Set<string>();
  /** E-mail addresses of contact messages the shop thanked for. */
  readonly messagesAccepted = new Set<string>();
  /** Upload ids the uploader got back. */
  readonly photosAccepted = new Set<string>();

  sent(instance: string): void {
    this.requests++;
    this.perInstance.set(instance, (this.perInstance.get(instance) ?? 0) + 1);
  }

  answered(instance: string, method: string, path: string, status: number): void {
    const kind: StatusClass =
      status === 429 ? "429" : status >= 500 ? "5xx" : status >= 400 ? "4xx" : status >= 300 ? "3xx" : "2xx";
    this.statuses[kind]++;
    if (kind === "5xx" && this.serverErrors.length < maxSamples)
      this.serverErrors.push(`${instance} ${method} ${path} ${status}`);
  }

  connectionFailed(what: string): void {
    this.connectionFailureCount++;
    if (this.connectionFailures.length < maxSamples) this.connectionFailures.push(what);
  }

  surprise(what: string): void {
    this.unexpectedCount++;
    if (this.unexpected.length < maxSamples) this.unexpected.push(what);
  }

  journey(name: string, outcome: JourneyOutcome): void {
    const counts = this.journeys.get(name) ?? { done: 0, limited: 0, lost: 0, failed: 0 };
    counts[outcome]++;
    this.journeys.set(name, counts);
  }
}
