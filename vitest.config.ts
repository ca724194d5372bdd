import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Island tests declare their DOM with a `// @vitest-environment happy-dom` line.
    globalSetup: ["tests/global-setup.ts"],
    // Server tests spawn the real entry point; give them room on a 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Most server tests wait on a spawned shop or on PostgreSQL rather than on the CPU: one
    // worker per core, where vitest's default of one fewer leaves a 2-core machine one worker.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: "server",
          include: ["tests/unit/**/*.test.ts", "tests/server/**/*.test.ts", "tests/scripts/**/*.test.ts"],
          exclude: ["tests/unit/islands/**"],
          // Each file builds its own app, store and clock, and none mocks a module, so files
          // share a worker's loaded modules: importing the server again for every file cost
          // about 70 of the run's 250 seconds on a 2-core machine.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "islands",
          include: ["tests/islands/**/*.test.{ts,tsx}", "tests/unit/islands/**/*.test.ts"],
          // An island's module keeps the page's state (the analytics queue, the registered
          // validators), as a page does: each file starts from a fresh page.
        },
      },
    ],
  },
});
