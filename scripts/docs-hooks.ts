// Writes docs/hooks.md from the hooks' contracts; a unit test fails when it is stale.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { hooksReference } from "./hooks-reference.ts";

const file = resolve(import.meta.dirname, "../docs/hooks.md");
writeFileSync(file, hooksReference());
console.log(`wrote ${file}`);
