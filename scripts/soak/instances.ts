// The shop's real entry point as child processes: started, waited for, killed and stopped.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export interface Instance {
  name: string;
  url: string;
  /** Where its stdout and stderr go (JSON log lines at LOG_LEVEL warn and up). */
  logFile: string;
  /** Set the moment it is killed; a request to it that fails after this is lost with it. */
  killedAt: number | undefined;
  kill(): Promise<void>;
  /** Log lines at level error or fatal so far. */
  errorLines(): string[];
  /** SIGTERM, then the exit code (null when a signal ended it). */
  stop(): Promise<number | null>;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject()));
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once("exit", (code) => done(code)));
}

async function waitHealthy(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the shop at ${url} exited with ${child.exitCode}; see ${logFile}`);
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`the shop at ${url} did not answer /healthz within 60 s; see ${logFile}`);
}

/** Starts `node --import tsx server/main.ts` with this environment and waits for /healthz. */
export async function startInstance(
  name: string,
  root: string,
  logDir: string,
  env: NodeJS.ProcessEnv,
): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = join(logDir, `instance-${name}-${port}.log`);
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    // A production start names its address: each instance links to itself, as shoppers reach it.
    env: { ...env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  try {
    await waitHealthy(url, child, logFile);
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  const instance: Instance = {
    name,
    url,
    logFile,
    killedAt: undefined,
    async kill() {
      instance.killedAt = Date.now();
      child.kill("SIGKILL");
      await exited(child);
    },
    errorLines: () =>
      readFileSync(logFile, "utf8")
        .split("\n")
        .filter((line) => /^\{"level":(50|60)\b/.test(line)),
    async stop() {
      child.kill("SIGTERM");
      return exited(child);
    },
  };
  return instance;
}
