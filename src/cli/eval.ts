// `budgetrl eval`: run a policy on an env under turn budgets, store every episode, print Pass@(K,T).
import { z } from "zod";
import { BUDGET_MODES, BUDGET_SCOPES } from "../core/budget.js";
import { ConfigError } from "../core/errors.js";
import { evaluate } from "../run/evaluate.js";
import { PROTOCOLS } from "../run/config.js";
import { defineCommand } from "./command.js";
import { createProgress } from "./progress.js";
import { keyValues } from "./key-values.js";
import { printRunTable } from "./run-summary.js";

const schema = z.object({
  env: z.string().default("sokoban").describe("environment: sokoban, frozenlake, hanoi, bfcl (see `budgetrl envs`)"),
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE, e.g. --env-opt boxes=2"),
  dataDir: z.string().optional().describe("data folder of dataset envs (bfcl); same as --env-opt dataDir=DIR"),
  category: z.string().optional().describe("bfcl categories, e.g. base,miss_func,miss_param,long_context; same as --env-opt categories=..."),
  policy: z.string().default("oracle").describe("policy: oracle, noisy-oracle:EPS, random, replay[:FILE]"),
  tasks: z.number().int().min(1).default(100).describe("number of tasks"),
  tasksFile: z.string().optional().describe("read tasks from this file (sokoban levels, frozenlake maps, hanoi lines, bfcl entry ids)"),
  n: z.number().int().min(1).max(100_000).default(8).describe("samples per (task, budget)"),
  k: z.string().default("1").describe("comma-separated K values for Pass@(K,T), each <= n"),
  budget: z.string().default("100%").describe("comma-separated turn budgets: turns (8) or % of the task's reference budget (25%)"),
  budgetMode: z.enum(BUDGET_MODES).default("announced").describe("what the agent is told: total and remaining turns, remaining only, or nothing"),
  budgetScope: z.enum(BUDGET_SCOPES).default("episode").describe("budget counts all turns, or restarts at each user turn (bfcl)"),
  protocol: z.enum(PROTOCOLS).default("separate").describe("separate runs per T (always valid), or one run at the largest T (hidden budgets only)"),
  seed: z.number().int().min(0).default(1).describe("run seed (tasks, samples, bootstrap)"),
  db: z.string().default("budgetrl.db").describe("SQLite run store"),
  run: z.string().optional().describe("run name (default: <env>-<timestamp>); with --resume, the run to continue"),
  resume: z.boolean().default(false).describe("continue an interrupted run (the named one, else the latest) with its stored config"),
  concurrency: z.number().int().min(1).max(1024).default(1).describe("episodes in flight at once (raise for remote policies)"),
  bootstrap: z.number().int().min(0).max(100_000).default(1000).describe("bootstrap resamples for confidence intervals (0: none)"),
  annotate: z.boolean().default(true).describe("record the oracle's view of each state"),
  json: z.boolean().default(false).describe("print the table as JSON"),
  progress: z.boolean().default(true).describe("show a progress bar on stderr"),
});

function parseKs(text: string): number[] {
  const values = text.split(",").filter((part) => part.trim() !== "").map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 1)) throw new ConfigError("--k", `expected positive integers separated by commas, got "${text}"`);
  return values;
}

function parseEnvOptions(pairs: readonly string[], dataDir: string | undefined, category: string | undefined): Record<string, string> {
  const options = keyValues(pairs, "--env-opt");
  if (dataDir !== undefined) options["dataDir"] = dataDir;
  if (category !== undefined) options["categories"] = category;
  return options;
}

export const evalCommand = defineCommand({
  name: "eval",
  summary: "Run a policy on an environment under turn budgets and print Pass@(K,T) with confidence intervals.",
  description:
    "Every (task, budget) gets n samples with their own seeds; every episode is stored in --db as it finishes, so an interrupted run continues with --resume. Budgets are turns (8) or percentages of each task's reference budget (25%).",
  schema,
  examples: [
    "budgetrl eval --env sokoban --policy noisy-oracle:0.3 --tasks 200 --n 16 --k 1,2,4,8,16 --budget 25%,50%,75%,100% --budget-mode announced --seed 1 --db runs.db",
    "budgetrl eval --env frozenlake --env-opt slippery=true --policy oracle --budget 50%,100% --budget-mode hidden --protocol single",
    "budgetrl eval --env bfcl --data-dir ../shared/bfcl --category base,miss_func,miss_param,long_context --policy replay --tasks 800 --budget 25%,100% --budget-scope user-turn",
    "budgetrl eval --resume --db runs.db",
  ],
  async run(options, io) {
    const controller = new AbortController();
    const onSignal = (): void => controller.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    let bar: ReturnType<typeof createProgress> | undefined;
    try {
      const result = await evaluate({
        env: options.env,
        envOptions: parseEnvOptions(options.envOpt, options.dataDir, options.category),
        policy: options.policy,
        tasks: options.tasks,
        ...(options.tasksFile === undefined ? {} : { tasksFile: options.tasksFile }),
        samples: options.n,
        ks: parseKs(options.k),
        budgets: options.budget.split(","),
        budgetMode: options.budgetMode,
        budgetScope: options.budgetScope,
        protocol: options.protocol,
        seed: options.seed,
        bootstrap: options.bootstrap,
        annotate: options.annotate,
        db: options.db,
        ...(options.run === undefined ? {} : { run: options.run }),
        resume: options.resume,
        concurrency: options.concurrency,
        signal: controller.signal,
        onProgress: (done, total, initial) => {
          if (!options.progress) return;
          bar ??= createProgress({ label: "eval", total, initial, interactive: io.interactive, write: io.stderr });
          bar.update(done);
        },
      });
      bar?.finish();
      printRunTable(io, result.run, options.db, result.config, result.table, options.json);
      if (result.errors > 0) io.stderr(`${result.errors} episodes ended in a policy error and are not counted; run again with --resume --run ${result.run} to retry them.\n`);
      if (result.interrupted) {
        io.stderr(`Interrupted after ${result.done}/${result.total} episodes. Continue with: budgetrl eval --resume --run ${result.run} --db ${options.db}\n`);
        return 130;
      }
      return 0;
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  },
});
