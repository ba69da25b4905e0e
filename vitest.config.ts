// Test runner configuration: tests live in test/, mirroring src/ file for file. The global set-up starts the
// loopback Redis and PostgreSQL of the scale-out tests when they are installed and not given (global-services.ts),
// and gives the run one temporary folder, removed at its end (global-tmpdir.ts).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/global-services.ts", "test/global-tmpdir.ts"],
  },
});
