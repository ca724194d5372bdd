import { execFileSync } from "node:child_process";

/** Server tests render real pages, which link the hashed build files; build them once per run. */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
