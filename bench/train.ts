// RL training step time on the reference model (vocab 260, 4 layers, d_model 128) with 16 tasks x 8 samples
// per step on sokoban, against the model's own compute for the tokens the step must sample and train, measured
// by the same kernels in the same run. Per context length: a short SFT warm start (so that replies are mostly
// valid and groups carry gradients), then GRPO steps on the same seeded tasks and budgets; the contexts take
// turns step by step, so that a load change on a shared machine hits them alike.
//
// After each step (not timed in it), with the step's own token counts:
//   sample floor  every token the step sampled (prompt tokens prefilled and reply tokens decoded, as the model
//                 counts them) at the per-token cost of one batched forward pass over the step's trained
//                 sequences (their forward alone, timed). An estimate, not a bound: that pass computes the
//                 output head at every position, which a prefill skips but for the last one, while a decoded
//                 token costs more than a batched one; the step's own generate time can come out below it.
//   train floor   one forward and backward over exactly the sequences the step trained (timed, then the
//                 gradients zeroed: the weights are not touched).
//   ratio         step seconds / (sample floor + train floor): how far a step is from the compute its tokens
//                 need (about 1: the step runs at the kernels' speed; above it: batching, sessions, the env,
//                 advantages, the optimiser, scheduling).
// Run: npx tsx bench/train.ts [--sft-steps 40] [--steps 3] [--contexts 256]; run --contexts 1024 on its own: two
// models of both contexts in one process, with this bench's replay of a whole step's sequences, outgrow the 4 GiB
// tensor heap (a clean nn:out-of-memory).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { NO_HELD_OUT } from "../src/agent/task-draws.js";
import { createEnv } from "../src/envs/registry.js";
import { loadCheckpoint } from "../src/nn/checkpoint.js";
import type { TinyModel } from "../src/nn/model.js";
import type { TokenCounts } from "../src/nn/runtime.js";
import type { TrainerBackend, TrainSequence } from "../src/rl/backend.js";
import { runSft } from "../src/rl/sft-run.js";
import { trainStep, type StepContext } from "../src/rl/step.js";
import type { StepMetrics } from "../src/rl/step-metrics.js";
import { tinyBackend } from "../src/rl/backends/tiny/backend.js";
import { parseTrainConfig } from "../src/rl/train-config.js";
import { MAX_NEW_TOKENS, rlConfig, TASKS_PER_STEP, warmStartConfig } from "./rl-setup.js";

const { values } = parseArgs({
  options: {
    "sft-steps": { type: "string", default: "40" },
    steps: { type: "string", default: "3" },
    contexts: { type: "string", default: "256" },
  },
});

interface Measured {
  readonly contextLength: number;
  readonly rows: StepRow[];
}

interface StepRow {
  readonly metrics: StepMetrics;
  /** Tokens the model ran during the step (prefill + decode: sampled; train: forward+backward; score). */
  readonly counts: TokenCounts;
  /** Tokens of the sequences the step trained (each once). */
  readonly trainedTokens: number;
  readonly forwardSeconds: number;
  readonly trainSeconds: number;
  /** CPU seconds (user + system, every thread) of the step. */
  readonly cpu: number;
}

interface Path {
  readonly contextLength: number;
  readonly dir: string;
  model?: TinyModel;
  context?: StepContext;
  /** The backend unwrapped (the kernels are timed through it, not recorded). */
  inner?: TrainerBackend;
  /** The sequences the step passed to accumulate (recorded by the backend wrapper). */
  trained: TrainSequence[];
}

const difference = (after: TokenCounts, before: TokenCounts): TokenCounts => ({
  prefill: after.prefill - before.prefill,
  decode: after.decode - before.decode,
  train: after.train - before.train,
  score: after.score - before.score,
});
const tokensOf = (sequences: readonly TrainSequence[]): number =>
  sequences.reduce((sum, sequence) => sum + sequence.tokens.length, 0);

async function warmStart(path: Path): Promise<void> {
  const started = performance.now();
  await runSft({
    out: join(path.dir, "base"),
    config: warmStartConfig(Number(values["sft-steps"]), path.contextLength),
  });
  console.log(
    `context ${path.contextLength}: SFT warm start, ${values["sft-steps"]} steps in ${((performance.now() - started) / 1000).toFixed(1)} s (demonstrations included)`,
  );
}

/** The RL run of the path as train() opens it (the warm start with a fresh optimiser), its backend recording what it trains. */
async function open(path: Path): Promise<void> {
  const config = parseTrainConfig(rlConfig(join(path.dir, "base"), Number(values.steps)));
  const model = await loadCheckpoint(join(path.dir, "base"));
  const state = model.optimizerState();
  state.m.fill(0);
  state.v.fill(0);
  state.step = 0;
  const inner = tinyBackend({ model, policy: { maxNewTokens: MAX_NEW_TOKENS, temperature: 1 } });
  const backend: TrainerBackend = {
    ...inner,
    accumulate: (batch, coefficients, normaliser) => {
      path.trained.push(...batch);
      return inner.accumulate(batch, coefficients, normaliser);
    },
  };
  path.model = model;
  path.inner = inner;
  path.context = { backend, env: createEnv(config.env, config.envOptions), config, heldOut: NO_HELD_OUT };
}

async function measureStep(path: Path, step: number, into: Measured): Promise<void> {
  const model = path.model!;
  const context = path.context!;
  path.trained = [];
  const before = model.tokenCounts();
  const cpuBefore = process.cpuUsage();
  const metrics = await trainStep(context, step, context.config.learningRate);
  const used = process.cpuUsage(cpuBefore);
  const counts = difference(model.tokenCounts(), before);
  // The kernels on the step's own sequences, each once: forward alone, then forward and backward.
  const trained = path.trained;
  const inner = path.inner!;
  let started = performance.now();
  await inner.logprobs(trained);
  const forwardSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await inner.accumulate(
    trained,
    (logprobs) => logprobs.map((values) => new Float32Array(values.length).fill(1e-3)),
    1,
  );
  const trainSeconds = (performance.now() - started) / 1000;
  model.zeroGradients();
  const row: StepRow = {
    metrics,
    counts,
    trainedTokens: tokensOf(trained),
    forwardSeconds,
    trainSeconds,
    cpu: (used.user + used.system) / 1e6,
  };
  into.rows.push(row);
  const floor = floorOf(row);
  console.log(
    `  context ${path.contextLength} step ${metrics.step}: ${metrics.seconds.toFixed(1)} s (generate ${metrics.generateSeconds.toFixed(1)}, update ${metrics.updateSeconds.toFixed(1)}; ${row.cpu.toFixed(1)} CPU s); ` +
      `sampled ${counts.prefill + counts.decode} tokens (${counts.prefill} prefilled, ${counts.decode} decoded), trained ${row.trainedTokens} in ${trained.length} sequences; ` +
      `floor ${floor.sample.toFixed(2)} + ${floor.train.toFixed(2)} s, ratio ${(metrics.seconds / (floor.sample + floor.train)).toFixed(2)}; success ${metrics.success.toFixed(3)}, no-gradient groups ${metrics.zeroGradientGroups}/${TASKS_PER_STEP}`,
  );
}

/** The step's compute floor in seconds: its sampled tokens at the forward pass's per-token cost, and its trained sequences' forward and backward. */
function floorOf(row: StepRow): { sample: number; train: number } {
  const perToken = row.trainedTokens === 0 ? 0 : row.forwardSeconds / row.trainedTokens;
  return { sample: (row.counts.prefill + row.counts.decode) * perToken, train: row.trainSeconds };
}

const paths: Path[] = values.contexts.split(",").map((text) => {
  const contextLength = Number(text);
  if (!(Number.isInteger(contextLength) && contextLength > 0))
    throw new Error(`--contexts: "${text}" is not a context length`);
  return { contextLength, dir: mkdtempSync(join(tmpdir(), "budgetrl-bench-train-")), trained: [] };
});
try {
  for (const path of paths) await warmStart(path);
  for (const path of paths) await open(path);
  const results: Measured[] = paths.map((path) => ({ contextLength: path.contextLength, rows: [] }));
  for (let step = 0; step < Number(values.steps); step++) {
    for (const [i, path] of paths.entries()) await measureStep(path, step, results[i]!);
  }
  for (const result of results) {
    const sum = (of: (row: StepRow) => number): number => result.rows.reduce((total, row) => total + of(row), 0);
    const steps = result.rows.length;
    const seconds = sum((row) => row.metrics.seconds);
    const sample = sum((row) => floorOf(row).sample);
    const train = sum((row) => floorOf(row).train);
    console.log(
      `RL (GRPO, BudgetMix, 16 tasks x 8 samples) context ${String(result.contextLength).padEnd(5)} ${(seconds / steps).toFixed(1).padStart(5)} s/step (generate ${(sum((row) => row.metrics.generateSeconds) / steps).toFixed(1)}, update ${(sum((row) => row.metrics.updateSeconds) / steps).toFixed(1)}), ` +
        `${Math.round(sum((row) => row.counts.prefill + row.counts.decode) / steps).toLocaleString("en-US")} tokens sampled and ${Math.round(sum((row) => row.trainedTokens) / steps).toLocaleString("en-US")} trained per step; ` +
        `kernel floor ${(sample / steps).toFixed(2)} s sampling + ${(train / steps).toFixed(2)} s training = ${((sample + train) / steps).toFixed(2)} s/step; ` +
        `step / floor ${(seconds / (sample + train)).toFixed(2)}x (generate / sample floor ${(sum((row) => row.metrics.generateSeconds) / sample).toFixed(2)}x, update / train floor ${(sum((row) => row.metrics.updateSeconds) / train).toFixed(2)}x); ${(sum((row) => row.cpu) / steps).toFixed(1)} CPU s/step`,
    );
  }
} finally {
  for (const path of paths) {
    path.context?.backend.dispose();
    rmSync(path.dir, { recursive: true, force: true });
  }
}
