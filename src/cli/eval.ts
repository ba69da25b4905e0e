// `budgetrl eval`: run a policy on an env under turn budgets, store every episode, print Pass@(K,T).
// Ctrl-C / SIGTERM stop it at once (interruptible): finished episodes are kept and the command to resume is printed.
// Exit codes: 0 complete, 1 finished with policy errors (not counted; --resume retries them), 2 bad input, a store
// fault, or a PostgreSQL store or Redis queue lost for longer than --reconnect-timeout (one line with the command to
// resume; what was committed is kept), 130/143 stopped by a signal.
import { z } from "zod";
import { evalResumeCommand, evalResumeFlags, type EvalReach } from "../core/commands.js";
import { ConnectionLostError, DataError, RunExistsError, StoppedError } from "../core/errors.js";
import { storeLocation } from "../store/open.js";
import { evaluate, type EvaluationResult } from "../eval/evaluate.js";
import { evalConfigSchema } from "../eval/config.js";
import { evalRunOptionsSchema } from "../eval/run-options.js";
import { defineCommand, type CliIo } from "./command.js";
import { createProgress } from "./progress.js";
import { keyValues } from "./key-values.js";
import { reportIgnoredOnResume } from "./resume-flags.js";
import { printRunTable } from "./run-summary.js";

/** How an openai policy reaches its server: never stored with the run, given again on --resume. */
const clientFlags = {
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
};

// The eval config's fields and defaults, how the run is played (run options: concurrency, timeouts), plus what
// only the command line needs: env and policy options as KEY=VALUE flags, the store, resume, output, and how to
// reach a model server (openai policies: these client options are not stored with the run and are given again on
// --resume).
const schema = evalConfigSchema
  .omit({ envOptions: true, policyOptions: true })
  .extend({
    env: evalConfigSchema.shape.env.default("sokoban"),
    policy: evalConfigSchema.shape.policy.default("oracle"),
    envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE, e.g. --env-opt boxes=2"),
    dataDir: z.string().optional().describe("data folder of dataset envs (bfcl); same as --env-opt dataDir=DIR"),
    category: z.string().optional().describe("bfcl categories, e.g. base,miss_func,miss_param,long_context; same as --env-opt categories=..."),
    db: z.string().min(1).default("budgetrl.db").describe("run store: an SQLite file, or a postgres:// URL (the database must exist)"),
    run: z
      .string()
      .refine((name) => name.trim() !== "", "a run's name cannot be empty (leave out --run for <env>-<timestamp>)")
      .optional()
      .describe("run name (default: <env>-<timestamp>); with --resume, the run to continue"),
    resume: z.boolean().default(false).describe("continue an interrupted run (the named one, else the latest) with its stored config"),
    json: z.boolean().default(false).describe("print the table as JSON"),
    progress: z.boolean().default(true).describe("show a progress bar on stderr"),
    policyOpt: z.array(z.string()).default([]).describe("policy option KEY=VALUE, stored with the run (openai: temperature, topP, maxTokens, seed, n, logprobs, topLogprobs, tokenIds, seedScheme, extraBody='{...}')"),
    ...clientFlags,
  })
  .extend(evalRunOptionsSchema.shape);

/** What `--resume` keeps from the command line: where the run is, how it is played, what is printed, how the
 * model server is reached. */
const KEPT_ON_RESUME = ["db", "run", "resume", "json", "progress", ...Object.keys(evalRunOptionsSchema.shape), ...Object.keys(clientFlags)];

type ClientFlags = { readonly [Key in keyof typeof clientFlags]?: z.output<(typeof clientFlags)[Key]> };

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
    ["cache", options.noCache === true ? false : undefined],
  ];
  return Object.fromEntries(pairs.filter(([, value]) => value !== undefined));
}

function envOptionsOf(pairs: readonly string[], dataDir: string | undefined, category: string | undefined): Record<string, string> {
  const options = keyValues(pairs, "--env-opt");
  if (dataDir !== undefined) options["dataDir"] = dataDir;
  if (category !== undefined) options["categories"] = category;
  return options;
}

/** Where the run is and how to continue it, as printed (a URL without its password; the flags it needs). */
interface Printed {
  readonly db: string;
  readonly resumeFlags: readonly string[];
}

function printedRun(db: string, reach: EvalReach): Printed {
  return { db: storeLocation(db), resumeFlags: evalResumeFlags(reach) };
}

/** A service lost for longer than --reconnect-timeout, as one line with what to do: the run continues with --resume
 * once the service is back (a new run lost before it started is started again). A stop signal ends the wait at once. */
function lostConnection(error: unknown, run: string | undefined, printed: Printed, signal: AbortSignal): unknown {
  if (!(error instanceof ConnectionLostError)) return error;
  const next = run === undefined ? "run the command again" : `continue with: ${evalResumeCommand(run, printed.db, printed.resumeFlags)}`;
  if (signal.aborted) return new StoppedError(`stopped while waiting for ${error.service} at ${error.location}; the episodes stored so far are kept: when it is back, ${next}`);
  return new DataError(`${error.message}; the episodes stored so far are kept: when it is back, ${next}`);
}

function reportEnd(io: CliIo, result: EvaluationResult, printed: Printed): number {
  if (result.contextLength > 0) io.stderr(`${result.contextLength} episodes ended at the model's context length (stop reason context_length, counted as failures).\n`);
  if (result.errors > 0) {
    io.stderr(`${result.errors} episodes ended in a policy error and are not counted${result.firstError === undefined ? "" : ` (first: ${result.firstError})`}; retry them with: ${evalResumeCommand(result.run, printed.db, printed.resumeFlags)}\n`);
  }
  return result.complete ? 0 : 1;
}

export const evalCommand = defineCommand({
  name: "eval",
  summary: "Run a policy on an environment under turn budgets and print Pass@(K,T) with confidence intervals.",
  description:
    "Every (task, budget) gets n samples with their own seeds; every episode is stored in --db as it finishes, so an interrupted run (Ctrl-C, kill, crash) continues with --resume. Budgets are turns (8) or percentages of each task's reference budget (25%). Exit code 1: some episodes ended in a policy error (--resume retries them); 2: bad input, a store fault, or a PostgreSQL store or Redis queue lost for longer than --reconnect-timeout (--resume continues once it is back); 130/143: stopped by Ctrl-C/SIGTERM.",
  schema,
  interruptible: true,
  examples: [
    "budgetrl eval --env sokoban --policy noisy-oracle:0.3 --tasks 200 --samples 16 --k 1,2,4,8,16 --budget 25%,50%,75%,100% --budget-mode announced --seed 1 --db runs.db",
    "budgetrl eval --env frozenlake --env-opt slippery=true --policy oracle:unbounded --budget 50%,100% --budget-mode hidden --protocol single",
    "budgetrl eval --env bfcl --category base,miss_func,miss_param,long_context --policy replay --tasks 800 --budget 25%,100% --budget-scope user-turn",
    "budgetrl eval --env bfcl --policy openai:Qwen/Qwen3-8B --base-url http://localhost:8000/v1 --policy-opt temperature=0.7 --policy-opt logprobs=true --samples 4 --k 1,4 --concurrency 32 --budget-scope user-turn",
    "budgetrl eval --resume --db runs.db",
    "budgetrl eval --env sokoban --policy noisy-oracle:0.3 --tasks 5000 --samples 16 --db postgres://me@db-host/budgetrl --executor bullmq --redis redis://queue-host:6379",
  ],
  async run(options, io, context) {
    const { envOpt, dataDir, category, db, run, resume, json, progress, policyOpt, baseUrl, apiKeyEnv, requestConcurrency, rpm, requestTimeout, retries, retryBackoff, retryMaxWait, cache, noCache, ...config } = options;
    if (resume) reportIgnoredOnResume(io, "eval", context.given, KEPT_ON_RESUME);
    const policyClient = policyClientOf({ baseUrl, apiKeyEnv, requestConcurrency, rpm, requestTimeout, retries, retryBackoff, retryMaxWait, cache, noCache });
    const printed = printedRun(db, { executor: config.executor, redis: config.redis, baseUrl, apiKeyEnv, requestConcurrency, rpm, requestTimeout, retries, retryBackoff, retryMaxWait, cache, noCache });
    let bar: ReturnType<typeof createProgress> | undefined;
    let started: string | undefined;
    const result = await evaluate({
      ...config,
      envOptions: envOptionsOf(envOpt, dataDir, category),
      ...(policyOpt.length === 0 ? {} : { policyOptions: keyValues(policyOpt, "--policy-opt") }),
      ...(Object.keys(policyClient).length === 0 ? {} : { policyClient }),
      db,
      ...(run === undefined ? {} : { run }),
      resume,
      signal: context.signal,
      onStart: (start) => {
        started = start.run;
        io.stderr(`run ${start.run}: ${start.total} episodes${start.initial > 0 ? ` (${start.initial} already stored)` : ""}, stored in ${printed.db} as they finish${config.executor === "bullmq" ? " by the workers (budgetrl worker)" : ""}; Ctrl-C stops\n`);
      },
      onProgress: (done, total, initial) => {
        if (!progress) return;
        bar ??= createProgress({ label: "eval", total, initial, interactive: io.interactive, write: io.stderr });
        bar.update(done);
      },
    }).catch((error: unknown) => {
      // The line that says why starts on a line of its own, after the bar's last state.
      if (io.interactive) bar?.finish();
      if (error instanceof RunExistsError) throw new RunExistsError(error.run, error.location, evalResumeCommand(error.run, printed.db, printed.resumeFlags));
      throw lostConnection(error, started ?? (resume ? run : undefined), printed, context.signal);
    });
    if (result.interrupted) {
      io.stderr(`Stopped after ${result.done}/${result.total} episodes, stored in ${printed.db}. Continue with: ${evalResumeCommand(result.run, printed.db, printed.resumeFlags)}\n`);
      return 130;
    }
    bar?.finish();
    printRunTable(io, result.run, printed.db, result.config, result.table, json, { errors: result.errors, of: result.total });
    return reportEnd(io, result, printed);
  },
});
