import { execFileSync, spawnSync } from "node:child_process";
import { shopEnv } from "./shop-env.ts";

/** The day after `day` (YYYY-MM-DD). */
export const dayAfter = (day: string) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * `npm run subscriptions -- ARGS` as staff type it, on the journeys' shop (its database, address
 * and test provider): answers what it prints. Other journeys' subscriptions live in the same
 * database, so what it says is read for this journey's subscription only.
 */
export function staff(baseURL: string, ...args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", "scripts/subscriptions.ts", ...args], {
    env: { ...process.env, ...shopEnv(baseURL) },
    encoding: "utf8",
  });
}

/** What `show` says of one subscription: its status line, paid-until day and its charges. */
export function shown(baseURL: string, id: string) {
  const text = staff(baseURL, "show", id);
  const charges = text.slice(text.indexOf("Afschrijvingen:"), text.indexOf("Zelf betaald"));
  return {
    text,
    paidUntil: /betaald t\/m: (\d{4}-\d{2}-\d{2})/.exec(text)?.[1] ?? "",
    endsOn: /eindigt op (\d{4}-\d{2}-\d{2})/.exec(text)?.[1] ?? "",
    charges: charges.split("\n").filter((line) => line.includes(" t/m ")),
    /** The test provider's page of the newest charge, as a path. */
    newestChargePage: () => new URL([...charges.matchAll(/testpagina: (\S+)/g)].at(-1)?.[1] ?? "").pathname,
  };
}

/** A staff command that is meant to be refused: its exit code and what it printed. */
export function staffRefused(baseURL: string, ...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/subscriptions.ts", ...args], {
    env: { ...process.env, ...shopEnv(baseURL) },
    encoding: "utf8",
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
