// `budgetrl eval`: run a policy on an env under turn budgets, store every episode, print Pass@(K,T).
// Ctrl-C / SIGTERM stop it at once (interruptible): finished episodes are kept and the command to resume is printed.
// Exit codes: 0 complete, 1 finished with policy errors (not counted; --resume retries them), 2 bad input, a store
// fault, or a PostgreSQL store or Redis queue lost for longer than --reconnect-timeout (one line with the command to
// resume; what was committed is kept), 130/143 stopped by a signal.
import { z } from "zod";
import { evalResumeCommand } from "../core/commands.js";
import { ConfigError, ConnectionLostError, DataError, RunExistsError, StoppedError } from "../core/errors.js";
import type { Json } from "../core/json.js";
import { policySpecLabel } from "../core/policy-spec.js";
import { storeLocation } from "../store/open.js";
import { evaluateParts, type EvalConfigRequest, type EvaluationResult } from "../eval/evaluate.js";
import { evalConfigSchema } from "../eval/config.js";
import {
  evalResumeFlags,
  evalRunOptionsSchema,
  parseEvalRunOptions,
  type EvalRunOptions,
} from "../eval/run-options.js";
import type { GivenClientOptions } from "../policies/openai/options.js";
import {
  CLIENT_FLAG_KEYS,
  clientFlagFields,
  clientOptionsOf,
  TINKER_FLAG_KEYS,
  tinkerFlagFields,
} from "./client-flags.js";
// The policy kind tinker: (tinker/policy-kind.ts; its client loads when such a policy is made).
import "../tinker/policy-kind.js";
import { defineCommand, type CliIo } from "./command.js";
import { createProgress } from "./progress.js";
import { keyJsonValues, keyValues } from "./key-values.js";
import { reportIgnoredOnResume } from "./resume-flags.js";
import { printRunTable } from "./run-summary.js";

// The flags come from the three objects of an evaluation, each its own schema: the eval config's fields and defaults
// (stored with the run), the openai client options (client-flags.ts, from clientOptionsSchema: never stored, given
// again on --resume; with them, how a tinker: policy reaches its service: --tinker-url, ...) and the run options (how
// the run is played: concurrency, timeouts, executor), plus what only the command line needs: env and policy options
// as KEY=VALUE flags (a tinker: policy's --base-model, --renderer and --template-opt are policy options too, stored
// with the run), the store, the run's name, resume, output.

/** The stored config's fields that are flags as they are (env and policy options come as KEY=VALUE flags). */
const configFlags = evalConfigSchema.omit({ envOptions: true, policyOptions: true });
const CONFIG_KEYS = Object.keys(configFlags.shape) as (keyof typeof configFlags.shape)[];

const schema = configFlags
  .extend({
    env: evalConfigSchema.shape.env.default("sokoban"),
    policy: evalConfigSchema.shape.policy.prefault("oracle"),
    envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE, e.g. --env-opt boxes=2"),
    dataDir: z.string().optional().describe("data folder of dataset envs (bfcl); same as --env-opt dataDir=DIR"),
    category: z
      .string()
      .optional()
      .describe("bfcl categories, e.g. base,miss_func,miss_param,long_context; same as --env-opt categories=..."),
    db: z
      .string()
      .min(1)
      .default("budgetrl.db")
      .describe("run store: an SQLite file, or a postgres:// URL (the database must exist)"),
    run: z
      .string()
      .refine((name) => name.trim() !== "", "a run's name cannot be empty (leave out --run for <env>-<timestamp>)")
      .optional()
      .describe("run name (default: <env>-<timestamp>); with --resume, the run to continue"),
    resume: z
      .boolean()
      .default(false)
      .describe("continue an interrupted run (the named one, else the latest) with its stored config"),
    json: z.boolean().default(false).describe("print the table as JSON"),
    progress: z.boolean().default(true).describe("show a progress bar on stderr"),
    policyOpt: z
      .array(z.string())
      .default([])
      .describe(
        "policy option KEY=VALUE, stored with the run (openai: temperature, topP, maxTokens, seed, n, logprobs, topLogprobs, tokenIds, seedScheme, extraBody='{...}'; tinker: temperature, maxNewTokens, contextLength, toolCallFormat)",
      ),
    baseModel: z
      .string()
      .min(1)
      .optional()
      .describe(
        "tinker: the base model as the service names it (needed with tinker:tinker://PATH; a checkpoint folder names its own); stored with the run",
      ),
    renderer: z
      .string()
      .optional()
      .describe(
        "tinker: how conversations become tokens: bytes (default) or hf:DIR (a model's tokenizer.json and chat template, copied into DIR); stored with the run",
      ),
    templateOpt: z
      .array(z.string())
      .default([])
      .describe("tinker, hf renderer: chat-template variable KEY=VALUE (enable_thinking=false); stored with the run"),
  })
  .extend(clientFlagFields)
  .extend(tinkerFlagFields)
  .extend(evalRunOptionsSchema.shape);

/** What `--resume` keeps from the command line: where the run is, how it is played, what is printed, how the
 * model server is reached. */
const KEPT_ON_RESUME = [
  "db",
  "run",
  "resume",
  "json",
  "progress",
  ...Object.keys(evalRunOptionsSchema.shape),
  ...CLIENT_FLAG_KEYS,
  ...TINKER_FLAG_KEYS,
];

/** The stored config's fields among the flags. */
function configOf(
  options: Readonly<z.output<typeof schema>>,
): Pick<z.output<typeof schema>, (typeof CONFIG_KEYS)[number]> {
  return Object.fromEntries(CONFIG_KEYS.map((key) => [key, options[key]])) as Pick<
    z.output<typeof schema>,
    (typeof CONFIG_KEYS)[number]
  >;
}

/** The policy options the flags give: --policy-opt pairs, and a tinker: policy's --base-model, --renderer and
 * --template-opt (refused with another policy, naming the flag; on --resume the stored ones count). */
function policyOptionsOf(options: Readonly<z.output<typeof schema>>): EvalConfigRequest["policyOptions"] {
  const { policy, policyOpt, baseModel, renderer, templateOpt, resume } = options;
  const tinker: Record<string, Json> = {
    ...(baseModel === undefined ? {} : { baseModel }),
    ...(renderer === undefined ? {} : { renderer }),
    ...(templateOpt.length === 0 ? {} : { templateOptions: keyJsonValues(templateOpt, "--template-opt") }),
  };
  const given = Object.keys(tinker)[0];
  if (given !== undefined && !resume && policy.kind !== "tinker")
    throw new ConfigError(given, `is read by --policy tinker:... only, not by ${policySpecLabel(policy)}`);
  const pairs = keyValues(policyOpt, "--policy-opt");
  const all = { ...pairs, ...tinker };
  // JSON values: the stored form (Json's arrays are readonly, the config's type takes them as they are).
  return Object.keys(all).length === 0 ? undefined : (all as EvalConfigRequest["policyOptions"]);
}

function envOptionsOf(
  pairs: readonly string[],
  dataDir: string | undefined,
  category: string | undefined,
): Record<string, string> {
  const options = keyValues(pairs, "--env-opt");
  if (dataDir !== undefined) options["dataDir"] = dataDir;
  if (category !== undefined) options["categories"] = category;
  return options;
}

/** Where the run is and how to continue it, as printed (a URL without its password; the flags it needs). */
interface Printed {
  readonly db: string;
  /** The command that continues run `run`. */
  resume(run: string): string;
}

function printedRun(db: string, runOptions: Readonly<EvalRunOptions>, client: GivenClientOptions | undefined): Printed {
  const location = storeLocation(db);
  const flags = evalResumeFlags(runOptions, client);
  return { db: location, resume: (run) => evalResumeCommand(run, location, flags) };
}

/** A service lost for longer than --reconnect-timeout, as one line with what to do: the run continues with --resume
 * once the service is back (a new run lost before it started is started again). A stop signal ends the wait at once. */
function lostConnection(error: unknown, run: string | undefined, printed: Printed, signal: AbortSignal): unknown {
  if (!(error instanceof ConnectionLostError)) return error;
  const next = run === undefined ? "run the command again" : `continue with: ${printed.resume(run)}`;
  if (signal.aborted)
    return new StoppedError(
      `stopped while waiting for ${error.service} at ${error.location}; the episodes stored so far are kept: when it is back, ${next}`,
    );
  return new DataError(`${error.message}; the episodes stored so far are kept: when it is back, ${next}`);
}

function reportEnd(io: CliIo, result: EvaluationResult, printed: Printed): number {
  if (result.contextLength > 0)
    io.stderr(
      `${result.contextLength} episodes ended at the model's context length (stop reason context_length, counted as failures).\n`,
    );
  if (result.errors > 0) {
    io.stderr(
      `${result.errors} episodes ended in a policy error and are not counted${result.firstError === undefined ? "" : ` (first: ${result.firstError})`}; retry them with: ${printed.resume(result.run)}\n`,
    );
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
    "budgetrl eval --env sokoban --policy tinker:runs/t/checkpoints/step-000060 --tinker-url http://localhost:8000 --samples 4 --k 1,4",
    "budgetrl eval --env bfcl --policy tinker:Qwen/Qwen3-4B --tinker-url URL --renderer hf:models/qwen3-4b --template-opt enable_thinking=false --budget-scope user-turn",
    "budgetrl eval --resume --db runs.db",
    "budgetrl eval --env sokoban --policy noisy-oracle:0.3 --tasks 5000 --samples 16 --db postgres://me@db-host/budgetrl --executor bullmq --redis redis://queue-host:6379",
  ],
  async run(options, io, context) {
    const { envOpt, dataDir, category, db, run, resume, json, progress } = options;
    if (resume) reportIgnoredOnResume(io, "eval", context.given, KEPT_ON_RESUME);
    // The three objects of an evaluation, each from its own schema's flags: the stored config, the run options, the
    // client options (openai's, and a tinker: policy's reach).
    const policyOptions = policyOptionsOf(options);
    const config: EvalConfigRequest = {
      ...configOf(options),
      envOptions: envOptionsOf(envOpt, dataDir, category),
      ...(policyOptions === undefined ? {} : { policyOptions }),
    };
    const runOptions = parseEvalRunOptions(options);
    const client = clientOptionsOf(options, true);
    const printed = printedRun(db, runOptions, client);
    let bar: ReturnType<typeof createProgress> | undefined;
    let started: string | undefined;
    const result = await evaluateParts({
      config,
      run: { db, ...(run === undefined ? {} : { name: run }), resume, options: runOptions },
      ...(client === undefined ? {} : { client }),
      hooks: {
        signal: context.signal,
        // A wait's line starts on a line of its own, after the bar's state (redrawn on the next update).
        onWait: (line) => io.stderr(`${io.interactive && bar !== undefined ? "\n" : ""}budgetrl eval: ${line}\n`),
        onStart: (start) => {
          started = start.run;
          io.stderr(
            `run ${start.run}: ${start.total} episodes${start.initial > 0 ? ` (${start.initial} already stored)` : ""}, stored in ${printed.db} as they finish${runOptions.executor === "bullmq" ? " by the workers (budgetrl worker)" : ""}; Ctrl-C stops\n`,
          );
        },
        onProgress: (done, total, initial) => {
          if (!progress) return;
          bar ??= createProgress({ label: "eval", total, initial, interactive: io.interactive, write: io.stderr });
          bar.update(done);
        },
      },
    }).catch((error: unknown) => {
      // The line that says why starts on a line of its own, after the bar's last state.
      if (io.interactive) bar?.finish();
      if (error instanceof RunExistsError)
        throw new RunExistsError(error.run, error.location, printed.resume(error.run));
      throw lostConnection(error, started ?? (resume ? run : undefined), printed, context.signal);
    });
    if (result.interrupted) {
      io.stderr(
        `Stopped after ${result.done}/${result.total} episodes, stored in ${printed.db}. Continue with: ${printed.resume(result.run)}\n`,
      );
      return 130;
    }
    bar?.finish();
    printRunTable(io, result.run, printed.db, result.config, result.table, json, {
      errors: result.errors,
      of: result.total,
    });
    return reportEnd(io, result, printed);
  },
});
