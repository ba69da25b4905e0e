// `budgetrl sft` as a library function: demonstrations from a policy (stored as an eval run with the core
// rollout engine, or an existing run), then supervised training of a fresh model on the replies, then a
// checkpoint: the "base model" RL starts from.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError } from "../core/errors.js";
import type { Episode } from "../core/episode.js";
import { createModel } from "../nn/model.js";
import { warmupCosine } from "../nn/schedule.js";
import { evaluate } from "../eval/evaluate.js";
import { readEpisodes } from "../store/episodes.js";
import { openStore } from "../store/open.js";
import { getRun, loadTasks } from "../store/runs.js";
import { demonstrationSequences, trainSft } from "./sft.js";
import { parseSftConfig, type SftConfig } from "./sft-config.js";
import { tinyBackend } from "./tiny-backend.js";

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
  const config = parseSftConfig(options.config);
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
      budgetScope: config.budgetScope,
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
  const backend = tinyBackend({ model, policy: { maxNewTokens: config.maxNewTokens, history: config.history } });
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
