// The unit lane (`npm run test:unit`): the tests of pure code, for the inner loop, in under about 30 seconds. Left to
// the full suite (`npm test`): the CLI and study end to end, the pinned reference, the browser (the report's, the
// view's, and the view's server on a real store), the Redis and PostgreSQL blocks (skipped here:
// test/helpers/services.ts), network fault injection, BFCL's full data, what the package entries load (a child
// process), the tests that train a model until it learns, or three runs to show they never draw a held-out task among
// 3,000 thin-ice maps (held-out: 7 s, a fifth of the lane), or through the Tinker stand-in (hf-renderer-train),
// evaluations through the tinker: policy kind (stores, the CLI: policy-kind), serve driven by the AI SDK and LangChain
// (client-packages: seconds of imports) and with an hf renderer (hf-chat-renderer: it trains a model on the renderer's
// tokens and runs an sft), and two cross-checks of seconds each: the oracle's success rates over about 30,000 episodes
// against the exact optimum (oracle-rates; oracle.test.ts checks its moves against the same solution here) and Qwen3's
// tokenizer and chat template against a Python reference run as a child process (hf-renderer-qwen3), and the interval's
// coverage in 2,700 simulated studies (crossed-mean-coverage: 8 s); serve with the clients' zod helpers
// (client-schemas: the AI SDK's and LangChain's imports), with curl, the openai client and Python against the body
// limit (http-body-clients: child processes), the schema keywords against Ajv over hundreds of drawn replies
// (schema-keywords: 5 s), and bench/serve-load.ts's flags (a child process).
// Thread workers without per-file isolation: the lane's files are pure, and isolation costs more than their tests.
// At least two workers: vitest's default keeps a core for its main thread, which idles once the files are
// transformed, and so runs one worker on a 2-core machine.
import { availableParallelism } from "node:os";
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
      "test/view/server.test.ts",
      "test/view/browser.test.ts",
      "test/report/study-report.test.ts",
      "test/envs/bfcl/**",
      "test/policies/openai/bfcl.test.ts",
      "test/policies/openai/fault-injection.test.ts",
      "test/rl/learning.test.ts",
      "test/rl/held-out.test.ts",
      "test/rl/backends/tinker/train.test.ts",
      "test/tinker/policy-kind.test.ts",
      "test/policies/renderers/hf-renderer-qwen3.test.ts",
      "test/rl/backends/tinker/hf-renderer-train.test.ts",
      "test/policies/scripted/oracle-rates.test.ts",
      "test/api/entry-loads.test.ts",
      "test/serve/client-packages.test.ts",
      "test/serve/hf-chat-renderer.test.ts",
      "test/metrics/crossed-mean-coverage.test.ts",
      "test/serve/client-schemas.test.ts",
      "test/serve/http-body-clients.test.ts",
      "test/serve/schema-keywords.test.ts",
      "test/bench/**",
    ],
    testTimeout: 60_000,
    pool: "threads",
    maxWorkers: Math.max(2, availableParallelism()),
    isolate: false,
    globalSetup: ["test/global-tmpdir.ts"],
    env: { BUDGETRL_LANE: "unit" },
  },
});
