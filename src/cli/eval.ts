// `budgetrl eval`: run a policy on an env under turn budgets, store every episode, print Pass@(K,T).
import { z } from "zod";
import { evaluate } from "../eval/evaluate.js";
import { evalConfigSchema } from "../eval/config.js";
import { defineCommand } from "./command.js";
import { createProgress } from "./progress.js";
import { keyValues } from "./key-values.js";
import { printRunTable } from "./run-summary.js";

// The eval config's fields and defaults, plus what only the command line needs: env and policy options as
// KEY=VALUE flags, the store, resume, concurrency, output, and how to reach a model server (openai policies:
// these client options are not stored with the run and are given again on --resume).
const schema = evalConfigSchema.omit({ envOptions: true, policyOptions: true }).extend({
  env: evalConfigSchema.shape.env.default("sokoban"),
  policy: evalConfigSchema.shape.policy.default("oracle"),
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE, e.g. --env-opt boxes=2"),
  dataDir: z.string().optional().describe("data folder of dataset envs (bfcl); same as --env-opt dataDir=DIR"),
  category: z.string().optional().describe("bfcl categories, e.g. base,miss_func,miss_param,long_context; same as --env-opt categories=..."),
  db: z.string().default("budgetrl.db").describe("SQLite run store"),
  run: z.string().optional().describe("run name (default: <env>-<timestamp>); with --resume, the run to continue"),
  resume: z.boolean().default(false).describe("continue an interrupted run (the named one, else the latest) with its stored config"),
  concurrency: z.number().int().min(1).max(1024).default(1).describe("episodes in flight at once (raise for remote policies)"),
  policyOpt: z.array(z.string()).default([]).describe("policy option KEY=VALUE, stored with the run (openai: temperature, topP, maxTokens, seed, n, logprobs, topLogprobs, tokenIds, extraBody='{...}')"),
  baseUrl: z.string().optional().describe("openai: server URL up to /v1, e.g. http://localhost:8000/v1 (default: $OPENAI_BASE_URL, else OpenAI's)"),
  apiKeyEnv: z.string().optional().describe("openai: environment variable holding the API key (default OPENAI_API_KEY; never printed or stored)"),
  requestConcurrency: z.number().int().min(1).optional().describe("openai: requests in flight at once across all episodes (default 16)"),
  rpm: z.number().int().min(0).optional().describe("openai: requests per minute at most (default 0: no limit)"),
  requestTimeout: z.number().int().min(1).optional().describe("openai: milliseconds allowed per request (default 120000)"),
  retries: z.number().int().min(0).optional().describe("openai: retries after timeouts, dropped connections, 408/409/429/5xx (default 6)"),
  retryBackoff: z.number().int().min(0).optional().describe("openai: first retry delay in ms, doubled each retry, jittered (default 500)"),
  retryMaxWait: z.number().int().min(0).optional().describe("openai: longest wait before a retry in ms, Retry-After included (default 30000)"),
  cache: z.string().optional().describe("openai: response cache folder (default $BUDGETRL_CACHE_DIR, else ~/.cache/budgetrl)"),
  noCache: z.boolean().default(false).describe("openai: neither read nor write the response cache"),
  json: z.boolean().default(false).describe("print the table as JSON"),
  progress: z.boolean().default(true).describe("show a progress bar on stderr"),
});

function envOptionsOf(pairs: readonly string[], dataDir: string | undefined, category: string | undefined): Record<string, string> {
  const options = keyValues(pairs, "--env-opt");
  if (dataDir !== undefined) options["dataDir"] = dataDir;
  if (category !== undefined) options["categories"] = category;
  return options;
}

type ClientFlags = Pick<z.output<typeof schema>, "baseUrl" | "apiKeyEnv" | "requestConcurrency" | "rpm" | "requestTimeout" | "retries" | "retryBackoff" | "retryMaxWait" | "cache" | "noCache">;

/** The client options of an openai policy from their flags (only those given). */
function policyClientOf(options: ClientFlags): Record<string, unknown> {
  const pairs: [string, unknown][] = [
    ["baseUrl", options.baseUrl],
    ["apiKeyEnv", options.apiKeyEnv],
    ["concurrency", options.requestConcurrency],
    ["rpm", options.rpm],
    ["timeoutMs", options.requestTimeout],
    ["retries", options.retries],
    ["backoffMs", options.retryBackoff],
    ["maxBackoffMs", options.retryMaxWait],
    ["cacheDir", options.cache],
    ["cache", options.noCache ? false : undefined],
  ];
  return Object.fromEntries(pairs.filter(([, value]) => value !== undefined));
}

export const evalCommand = defineCommand({
  name: "eval",
  summary: "Run a policy on an environment under turn budgets and print Pass@(K,T) with confidence intervals.",
  description:
    "Every (task, budget) gets n samples with their own seeds; every episode is stored in --db as it finishes, so an interrupted run continues with --resume. Budgets are turns (8) or percentages of each task's reference budget (25%).",
  schema,
  examples: [
    "budgetrl eval --env sokoban --policy noisy-oracle:0.3 --tasks 200 --samples 16 --k 1,2,4,8,16 --budget 25%,50%,75%,100% --budget-mode announced --seed 1 --db runs.db",
    "budgetrl eval --env frozenlake --env-opt slippery=true --policy oracle:unbounded --budget 50%,100% --budget-mode hidden --protocol single",
    "budgetrl eval --env bfcl --category base,miss_func,miss_param,long_context --policy replay --tasks 800 --budget 25%,100% --budget-scope user-turn",
    "budgetrl eval --env bfcl --policy openai:Qwen/Qwen3-8B --base-url http://localhost:8000/v1 --policy-opt temperature=0.7 --policy-opt logprobs=true --samples 4 --k 1,4 --concurrency 32 --budget-scope user-turn",
    "budgetrl eval --resume --db runs.db",
  ],
  async run(options, io) {
    const controller = new AbortController();
    const onSignal = (): void => controller.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    let bar: ReturnType<typeof createProgress> | undefined;
    try {
      const { envOpt, dataDir, category, db, run, resume, concurrency, json, progress, policyOpt, baseUrl, apiKeyEnv, requestConcurrency, rpm, requestTimeout, retries, retryBackoff, retryMaxWait, cache, noCache, ...config } = options;
      const policyClient = policyClientOf({ baseUrl, apiKeyEnv, requestConcurrency, rpm, requestTimeout, retries, retryBackoff, retryMaxWait, cache, noCache });
      const result = await evaluate({
        ...config,
        envOptions: envOptionsOf(envOpt, dataDir, category),
        ...(policyOpt.length === 0 ? {} : { policyOptions: keyValues(policyOpt, "--policy-opt") }),
        ...(Object.keys(policyClient).length === 0 ? {} : { policyClient }),
        db,
        ...(run === undefined ? {} : { run }),
        resume,
        concurrency,
        signal: controller.signal,
        onProgress: (done, total, initial) => {
          if (!progress) return;
          bar ??= createProgress({ label: "eval", total, initial, interactive: io.interactive, write: io.stderr });
          bar.update(done);
        },
      });
      bar?.finish();
      printRunTable(io, result.run, db, result.config, result.table, json);
      if (result.contextLength > 0) io.stderr(`${result.contextLength} episodes ended at the model's context length (stop reason context_length, counted as failures).\n`);
      if (result.errors > 0) io.stderr(`${result.errors} episodes ended in a policy error and are not counted; run again with --resume --run ${result.run} to retry them.\n`);
      if (result.interrupted) {
        io.stderr(`Interrupted after ${result.done}/${result.total} episodes. Continue with: budgetrl eval --resume --run ${result.run} --db ${db}\n`);
        return 130;
      }
      return 0;
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  },
});
