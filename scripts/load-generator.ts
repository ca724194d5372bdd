// A lean HTTP/1.1 load generator for the bench: keep-alive connections that each send one
// request, read the answer's framing and send the next.
//
// Why not autocannon: it appends every body chunk to a string (`body += chunk`), which
// decodes the gzip bytes as UTF-8. On one machine that costs the load generator about
// 50 ns per byte, so any page of a few kB measured autocannon, not the shop: at 7 kB the
// generator sat at 100% of a core while the server idled at a third of one. Here the body
// is only counted (chunked framing is followed, never copied), so the server stays the
// side that runs out.
import { connect, type Socket } from "node:net";

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  /** Seconds of measured load */
  duration: number;
  /** Seconds of load before measuring starts (caches, JIT) */
  warmup?: number;
  /** Called as the measured seconds begin and end, e.g. to read the server's CPU time */
  onMeasuring?: (phase: "start" | "end") => void;
  /**
   * The requests to send, one per call (e.g. each shopper of a crowd with their own
   * cookies, scripts/crowd-draw.ts), instead of the one request `url` and `headers` make.
   * When it gives none, that connection stops; once all have stopped, the load ends early.
   */
  source?: () => Buffer | undefined;
}

export interface LoadResult {
  /** Answers per second over the measured seconds */
  requestsPerSecond: number;
  requests: number;
  /** Bytes of body per answer, averaged */
  bodyBytes: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  statusCounts: Record<string, number>;
  /** Connections that failed or were closed by the server mid-answer */
  errors: number;
  /** Measured seconds */
  seconds: number;
  /** Latencies: answers per 0.1 ms, up to 10 s (the last holds everything slower) */
  latencies: Uint32Array;
}

const latencyBuckets = 100_001;

/** The latency under which `share` of the answers came (0.99 for the p99), in ms. */
function percentileOf(latencies: Uint32Array, requests: number, share: number): number {
  const target = Math.ceil(requests * share);
  let seen = 0;
  for (let bucket = 0; bucket < latencies.length; bucket++) {
    seen += latencies[bucket] ?? 0;
    if (seen >= target && requests > 0) return bucket / 10;
  }
  return 0;
}

/** Several measurements of one URL as one: their answers, seconds and latencies together. */
export function combined(results: readonly LoadResult[]): LoadResult {
  const latencies = new Uint32Array(latencyBuckets);
  const statusCounts: Record<string, number> = {};
  let requests = 0;
  let seconds = 0;
  let bytes = 0;
  let errors = 0;
  for (const result of results) {
    requests += result.requests;
    seconds += result.seconds;
    bytes += result.bodyBytes * result.requests;
    errors += result.errors;
    for (const [code, count] of Object.entries(result.statusCounts)) {
      statusCounts[code] = (statusCounts[code] ?? 0) + count;
    }
    for (let bucket = 0; bucket < latencyBuckets; bucket++) {
      latencies[bucket] = (latencies[bucket] ?? 0) + (result.latencies[bucket] ?? 0);
    }
  }
  return {
    requestsPerSecond: seconds > 0 ? requests / seconds : 0,
    requests,
    bodyBytes: requests > 0 ? bytes / requests : 0,
    latencyP50Ms: percentileOf(latencies, requests, 0.5),
    latencyP99Ms: percentileOf(latencies, requests, 0.99),
    statusCounts,
    errors,
    seconds,
    latencies,
  };
}

/** The request exactly as sent on the wire, every time. */
export function requestBytes(url: URL, headers: Record<string, string> = {}): Buffer {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
}

const CRLF = 0x0a;

/**
 * Reads HTTP/1.1 answers from a stream of chunks and reports each complete one. Bodies are
 * skipped by length (content-length) or by following the chunk sizes (chunked); nothing of
 * a body is copied or decoded.
 */
export class ResponseReader {
  private pending: Buffer | undefined;
  private state: "head" | "body" | "chunk-size" | "chunk-data" | "chunk-end" | "trailer" = "head";
  private remaining = 0;
  private status = 0;
  private bytes = 0;
  private line = "";

  constructor(private readonly onResponse: (status: number, bodyBytes: number) => void) {}

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      switch (this.state) {
        case "head": {
          // The head can arrive in pieces: keep what came so far and look again across the seam.
          const pending = this.pending?.length ?? 0;
          const data = this.pending ? Buffer.concat([this.pending, chunk.subarray(at)]) : chunk.subarray(at);
          const end = data.indexOf("\r\n\r\n", 0, "latin1");
          if (end < 0) {
            this.pending = Buffer.from(data);
            return;
          }
          this.pending = undefined;
          at += end + 4 - pending;
          this.startBody(data.subarray(0, end).toString("latin1"));
          break;
        }
        case "body":
        case "chunk-data": {
          const take = Math.min(this.remaining, chunk.length - at);
          this.remaining -= take;
          this.bytes += take;
          at += take;
          if (this.remaining > 0) break;
          if (this.state === "body") this.finish();
          else this.state = "chunk-end";
          break;
        }
        case "chunk-size":
        case "chunk-end":
        case "trailer": {
          const newline = chunk.indexOf(CRLF, at);
          const end = newline < 0 ? chunk.length : newline;
          this.line += chunk.subarray(at, end).toString("latin1");
          at = end;
          if (newline < 0) return;
          at += 1;
          const line = this.line.replace(/\r$/, "");
          this.line = "";
          if (this.state === "chunk-end") {
            this.state = "chunk-size";
          } else if (this.state === "trailer") {
            if (line === "") this.finish();
          } else {
            const size = Number.parseInt(line.split(";", 1)[0] ?? "", 16);
            if (!Number.isFinite(size)) throw new Error(`bad chunk size line: ${JSON.stringify(line)}`);
            if (size === 0) this.state = "trailer";
            else {
              this.remaining = size;
              this.state = "chunk-data";
            }
          }
          break;
        }
      }
    }
  }

  private startBody(head: string): void {
    this.status = Number(head.slice(9, 12));
    this.bytes = 0;
    const lower = head.toLowerCase();
    if (/\r\ntransfer-encoding:[^\r]*chunked/.test(lower)) {
      this.state = "chunk-size";
      return;
    }
    const length = /\r\ncontent-length:\s*(\d+)/.exec(lower);
    this.remaining = length ? Number(length[1]) : 0;
    this.state = "body";
    if (this.remaining === 0) this.finish();
  }

  private finish(): void {
    this.state = "head";
    this.onResponse(this.status, this.bytes);
  }
}

/** Loads one URL over `connections` keep-alive connections and counts the answers. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  if (url.protocol !== "http:") throw new Error(`only http: URLs can be loaded, got ${url.protocol}`);
  const fixedRequest = requestBytes(url, options.headers);
  const nextRequest = options.source ?? (() => fixedRequest);
  const port = Number(url.port || 80);

  let measuring = false;
  let stopped = false;
  let requests = 0;
  let bodyBytes = 0;
  let errors = 0;
  const statusCounts: Record<string, number> = {};
  // Latency histogram in 0.1 ms buckets up to 10 s; enough for a p99.
  const buckets = new Uint32Array(latencyBuckets);
  const sockets: Socket[] = [];
  // Connections whose source ran dry; when all have, the load is over.
  let finished = 0;
  let allFinished: () => void = () => {};
  const exhausted = new Promise<void>((resolve) => {
    allFinished = resolve;
  });

  const open = (): void => {
    if (stopped) return;
    const socket = connect({ host: url.hostname, port, noDelay: true });
    sockets.push(socket);
    let sentAt = 0;
    let done = false;
    const send = () => {
      const request = nextRequest();
      if (request === undefined) {
        done = true;
        socket.end();
        if (++finished === options.connections) allFinished();
        return;
      }
      sentAt = performance.now();
      socket.write(request);
    };
    const reader = new ResponseReader((status, bytes) => {
      if (measuring) {
        requests++;
        bodyBytes += bytes;
        statusCounts[status] = (statusCounts[status] ?? 0) + 1;
        const bucket = Math.min(buckets.length - 1, Math.round((performance.now() - sentAt) * 10));
        buckets[bucket] = (buckets[bucket] ?? 0) + 1;
      }
      if (!stopped) send();
    });
    socket.on("connect", send);
    socket.on("data", (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch {
        socket.destroy();
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      if (stopped || done) return;
      if (measuring) errors++;
      const index = sockets.indexOf(socket);
      if (index >= 0) sockets.splice(index, 1);
      open();
    });
  };

  for (let i = 0; i < options.connections; i++) open();
  await new Promise((wait) => setTimeout(wait, (options.warmup ?? 0) * 1000));
  options.onMeasuring?.("start");
  measuring = true;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise((wait) => {
      timer = setTimeout(wait, options.duration * 1000);
    }),
    exhausted,
  ]);
  clearTimeout(timer);
  measuring = false;
  options.onMeasuring?.("end");
  const seconds = (performance.now() - started) / 1000;
  stopped = true;
  for (const socket of sockets) socket.destroy();

  return {
    requestsPerSecond: requests / seconds,
    requests,
    bodyBytes: requests > 0 ? bodyBytes / requests : 0,
    latencyP50Ms: percentileOf(buckets, requests, 0.5),
    latencyP99Ms: percentileOf(buckets, requests, 0.99),
    statusCounts,
    errors,
    seconds,
    latencies: buckets,
  };
}
