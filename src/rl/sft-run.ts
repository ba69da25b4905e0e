// `budgetrl sft` as a library function: demonstrations from a policy (stored as an eval run with the core
// rollout engine, or an existing run), then supervised training of a fresh model on the replies, then a
// checkpoint: the "base model" RL starts from.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { BUDGET_MODES } from "../core/budget.js";
import { ConfigError } from "../core/errors.js";
import type { Episode } from "../core/episode.js";
import { createModel } from "../nn/model.js";
import { warmupCosine } from "../nn/schedule.js";
import { evaluate } from "../run/evaluate.js";
import { readEpisodes } from "../store/episodes.js";
import { openStore } from "../store/open.js";
import { getRun, loadTasks } from "../store/runs.js";
import { demonstrationSequences, trainSft } from "./sft.js";
import { tinyBackend } from "./tiny-backend.js";

export const sftConfigSchema = z.object({
  env: z.string().default("sokoban").describe("environment of the demonstrations"),
  envOptions: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}).describe("environment options"),
  policy: z.string().default("noisy-oracle:0.3").describe("demonstrator policy"),
  tasks: z.number().int().min(1).default(500).describe("demonstration tasks"),
  samples: z.number().int().min(1).default(2).describe("demonstrations per task"),
  budget: z.string().default("100%").describe("turn budget of the demonstrations"),
  budgetMode: z.enum(BUDGET_MODES).default("announced").describe("budget text in the demonstrations"),
  fromRun: z.string().optional().describe("use this stored run as the demonstrations instead of generating them"),
  seed: z.number().int().min(0).default(1).describe("seed of tasks, demonstrations, initialisation and batches"),
  modelConfig: z.record(z.string(), z.number()).default({}).describe("model config overrides (reference: 4 layers, d_model 128, context 256)"),
  steps: z.number().int().min(1).default(300).describe("optimiser steps"),
  batchSize: z.number().int().min(1).default(32).describe("sequences per step"),
  learningRate: z.number().positive().default(3e-3).describe("peak learning rate"),
  warmupSteps: z.number().int().min(0).default(20).describe("warm-up steps"),
  maxNewTokens: z.number().int().min(1).default(16).describe("longest reply the policy samples (sets the prompt window)"),
});

export type SftConfig = z.output<typeof sftConfigSchema>;

export interface SftRunOptions {
  readonly config: unknown;
  /** Checkpoint directory to write. */
  readonly out: string;
  /** Store of the demonstrations (default: <out>/demos.db). */
  readonly db?: string;
  readonly onStep?: (step: number, total: number, stats: { readonly loss: number; readonly tokens: number }) => void;
  readonly onDemos?: (done: number, total: number) => void;
  readonly threads?: number;
}

export interface SftRunResult {
  readonly config: Readonly<SftConfig>;
  readonly demoRun: string;
  readonly sequences: number;
  readonly finalLoss: number;
  readonly checkpoint: string;
}

export async function runSft(options: SftRunOptions): Promise<SftRunResult> {
  const parsed = sftConfigSchema.safeParse(options.config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    throw new ConfigError(issue.path.map(String).join(".") || "config", issue.message);
  }
  const config = Object.freeze(parsed.data);
  if (existsSync(join(options.out, "budgetrl.json"))) throw new ConfigError("out", `${options.out} already holds a checkpoint`, "pick another --out");
  await mkdir(options.out, { recursive: true });
  const db = options.db ?? join(options.out, "demos.db");
  let demoRun = config.fromRun;
  if (demoRun === undefined) {
    const result = await evaluate({
      env: config.env,
      envOptions: config.envOptions,
      policy: config.policy,
      tasks: config.tasks,
      samples: config.samples,
      budgets: [config.budget],
      budgetMode: config.budgetMode,
      seed: config.seed,
      bootstrap: 0,
      db,
      run: "demonstrations",
      ...(options.onDemos === undefined ? {} : { onProgress: (done: number, total: number) => options.onDemos?.(done, total) }),
    });
    demoRun = result.run;
  }
  const episodes = readDemonstrations(db, demoRun);
  const model = await createModel({ config: config.modelConfig, seed: config.seed, ...(options.threads === undefined ? {} : { threads: options.threads }) });
  const backend = tinyBackend({ model, policy: { maxNewTokens: config.maxNewTokens } });
  try {
    const sequences = demonstrationSequences(episodes, backend.policy());
    let finalLoss = NaN;
    await trainSft(backend, sequences, {
      steps: config.steps,
      batchSize: config.batchSize,
      seed: config.seed,
      learningRate: warmupCosine({ peak: config.learningRate, warmupSteps: Math.min(config.warmupSteps, config.steps), totalSteps: config.steps, minRatio: 0.1 }),
      onStep: (step, stats) => {
        finalLoss = stats.loss;
        options.onStep?.(step, config.steps, stats);
      },
    });
    await backend.save(options.out);
    return { config, demoRun, sequences: sequences.length, finalLoss, checkpoint: options.out };
  } finally {
    backend.dispose();
  }
}

function readDemonstrations(db: string, run: string): Episode[] {
  const store = openStore(db);
  try {
    const record = getRun(store, run);
    const taskIds = new Map(loadTasks(store, run).map((task) => [task.index, task.id]));
    return [...readEpisodes(store, run, record.env, taskIds)].filter((episode) => episode.stopReason !== "error");
  } finally {
    store.close();
  }
}
