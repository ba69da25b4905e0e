// The unit lane (`npm run test:unit`): the tests of pure code, for the inner loop, in under about 30 seconds.
// Left to the full suite (`npm test`): the CLI and study end to end, the pinned reference, the browser, the Redis
// and PostgreSQL blocks (skipped here: test/helpers/services.ts), network fault injection, BFCL's full data, what
// the package entries load (a child process), and the tests that train a model until it learns. One thread pool
// without per-file isolation: the lane's files are pure, and isolation costs more than their tests.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [
      "test/cli/**",
      "test/study/**",
      "test/reference/**",
      "test/eval/bullmq/**",
      "test/eval/bullmq.test.ts",
      "test/store/postgres*.test.ts",
      "test/report/html/**",
      "test/report/study-report.test.ts",
      "test/envs/bfcl/**",
      "test/policies/openai/bfcl.test.ts",
      "test/policies/openai/fault-injection.test.ts",
      "test/rl/learning.test.ts",
      "test/rl/tinker/train.test.ts",
      "test/api/entry-loads.test.ts",
    ],
    testTimeout: 60_000,
    pool: "threads",
    isolate: false,
    globalSetup: ["test/global-tmpdir.ts"],
    env: { BUDGETRL_LANE: "unit" },
  },
});
