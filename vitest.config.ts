import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "tests/unit/**/*.test.ts",
      "tests/server/**/*.test.ts",
      "tests/islands/**/*.test.{ts,tsx}",
      "tests/scripts/**/*.test.ts",
    ],
    // Island tests declare their DOM with a `// @vitest-environment happy-dom` line.
    globalSetup: ["tests/global-setup.ts"],
    // Server tests spawn the real entry point; give them room on a 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Most server tests wait on a spawned shop or on PostgreSQL rather than on the CPU: one
    // worker per core, where vitest's default of one fewer leaves a 2-core machine one worker.
    maxWorkers: availableParallelism(),
  },
});
