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
  },
});
