import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

export interface ShopProcess {
  child: ChildProcess;
  /** Everything it wrote, stdout and stderr together. */
  output: () => string;
  exit: Promise<number | null>;
}

/**
 * The real entry point, as `npm start` runs it, in its own process. With `umask` the
 * process starts under that umask (000: anything created without an explicit mode comes
 * out readable and writable by everyone).
 */
/**
 * Every process started here and not yet gone. A test that times out never reaches its
 * finally: stopAllShopProcesses() in an afterEach keeps its shop from outliving the run.
 */
const running = new Set<ChildProcess>();

export function stopAllShopProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

export function startShopProcess(env: Record<string, string>, options: { umask?: string } = {}): ShopProcess {
  const node = [process.execPath, "--import", "tsx", "server/main.ts"];
  const [command = "", ...args] = options.umask
    ? ["sh", "-c", `umask ${options.umask} && exec "$0" "$@"`, ...node]
    : node;
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH, LOG_LEVEL: "warn", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.on("exit", () => running.delete(child));
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exit };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Polls until the check holds; throws after ms. */
export async function until(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("timed out");
}

/** The lines a process wrote, blank ones left out. */
export const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");
