// The RL loop: every step reads as generate -> score -> advantages -> loss -> update.
//   generate:   fresh tasks (distinct within the step), a budget per group (schedule), `group` rollouts per task
//               (rollouts.ts)
//   score:      advantages per group with the chosen estimator (advantages/)
//   loss/update: clipped-ratio objective with optional KL, epochs x minibatches of AdamW (update.ts)
// Logged per step to the store (reward, success, turns, clip fraction, KL, entropy, tokens/s, zero-gradient
// groups); evaluated on held-out tasks every E steps (an eval run in the same store); checkpointed every C steps.
// Resume continues from the newest complete checkpoint and, since every random draw is seeded by (seed, step),
// ends with exactly the weights of an uninterrupted run.
// Start-up: everything that can be refused (config, env, more distinct tasks than the env has, a missing or corrupt
// --init) is refused before --out is touched, and a new run that fails before its first step removes what it made,
// so the same command can simply be run again. A stop signal abandons the step (or evaluation) in flight and
// checkpoints the steps done.
// Backends (config `backend`): the in-process transformer, or a model on a Tinker server (src/rl/tinker/, reached
// through the run option `tinker`, never stored); a tinker run's checkpoints hold the server paths of its state.
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { trainResumeCommand } from "../core/commands.js";
import { checkBudgetsFit } from "../core/budget.js";
import { BudgetrlError, ConfigError, StoppedError } from "../core/errors.js";
import { folderOutputProblem } from "../core/output-path.js";
import type { Json } from "../core/json.js";
import type { AnyEnv } from "../core/env.js";
import { deriveSeed } from "../core/rng.js";
import { createEnv } from "../envs/registry.js";
import { loadCheckpoint } from "../nn/checkpoint.js";
import { createModel, type TinyModel } from "../nn/model.js";
import { warmupCosine } from "../nn/schedule.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { evaluate } from "../eval/evaluate.js";
import { checkDistinctCount, heldOutTaskIds } from "../agent/task-draws.js";
import { openStore, type Store } from "../store/open.js";
import { getRun, runExists } from "../store/runs.js";
import { deleteRun, writeTrainStep } from "../store/train-log.js";
import { advantageEstimator, mean } from "./advantages/index.js";
import type { ReferenceScorer, TrainerBackend } from "./backend.js";
import { openTinkerBackend } from "./tinker/backend.js";
import { openRenderer } from "./tinker/renderer.js";
import { readTinkerCheckpoint, type TinkerCheckpoint } from "./tinker/checkpoint.js";
import { createTinkerClient, type TinkerClientOptions } from "./tinker/client.js";
import { rolloutStep } from "./rollouts.js";
import { policyExamples, type PolicyExample } from "./sequences.js";
import { tinyBackend } from "./tiny-backend.js";
import { encodeTrainConfig, parseTrainConfig, type TrainConfig } from "./train-config.js";
import { updatePolicy } from "./update.js";

export interface StepMetrics {
  readonly step: number;
  readonly reward: number;
  readonly success: number;
  readonly turns: number;
  readonly invalid: number;
  readonly loss: number;
  readonly clipFraction: number;
  readonly kl: number;
  readonly entropy: number;
  readonly gradNorm: number;
  readonly learningRate: number;
  readonly tokens: number;
  readonly tokensPerSecond: number;
  /** Every token the model ran: prompt tokens prefilled, replies decoded, sequences trained (times epochs) and scored. */
  readonly processedTokens: number;
  readonly zeroGradientGroups: number;
  readonly groups: number;
  readonly seconds: number;
  /** Of `seconds`: the rollouts (sampling and env steps), then advantages and the policy update. */
  readonly generateSeconds: number;
  readonly updateSeconds: number;
  /** Ids of the step's training tasks (the report counts how many held-out tasks training saw: none). */
  readonly taskIds: readonly string[];
}

export interface EvalPoint {
  readonly step: number;
  readonly run: string;
  readonly table: PassAtKTTable;
}

export interface TrainOptions {
  readonly config: unknown;
  readonly out: string;
  readonly resume?: boolean;
  readonly signal?: AbortSignal;
  /** Stop (with a checkpoint) after this many steps in total: interruption in tests. */
  readonly stopAfter?: number;
  readonly onStep?: (metrics: StepMetrics, total: number) => void;
  readonly onEval?: (point: EvalPoint) => void;
  /** Model threads (results do not depend on it). */
  readonly threads?: number;
  /** How to reach the Tinker server of a `backend: "tinker"` run (URL, API key, timeouts); never stored. */
  readonly tinker?: Omit<TinkerClientOptions, "signal">;
}

export interface TrainResult {
  readonly config: Readonly<TrainConfig>;
  readonly stepsDone: number;
  readonly finished: boolean;
  readonly weightsDigest: string;
  readonly evals: readonly EvalPoint[];
  readonly checkpoint: string;
}

const CHECKPOINTS = "checkpoints";

function checkpointDir(out: string, step: number): string {
  return join(out, CHECKPOINTS, `step-${String(step).padStart(6, "0")}`);
}

/** The newest complete checkpoint (its manifest is written last), as [step, dir]. */
async function latestCheckpoint(out: string): Promise<[number, string] | undefined> {
  const root = join(out, CHECKPOINTS);
  if (!existsSync(root)) return undefined;
  const steps = (await readdir(root)).map((name) => /^step-(\d+)$/.exec(name)).filter((match) => match !== null).map((match) => Number(match[1])).sort((a, b) => b - a);
  for (const step of steps) if (existsSync(join(checkpointDir(out, step), "budgetrl.json"))) return [step, checkpointDir(out, step)];
  return undefined;
}

async function initialModel(config: Readonly<TrainConfig>, threads: number | undefined): Promise<TinyModel> {
  const options = threads === undefined ? {} : { threads };
  if (config.init === undefined) return createModel({ ...options, config: config.modelConfig, seed: config.seed });
  const model = await loadCheckpoint(config.init, options);
  // RL starts with a fresh optimiser: the SFT moments describe another objective.
  const state = model.optimizerState();
  state.m.fill(0);
  state.v.fill(0);
  state.step = 0;
  return model;
}

interface Prepared {
  readonly config: Readonly<TrainConfig>;
  readonly env: AnyEnv;
  readonly backend: OpenedBackend;
  readonly startStep: number;
  /** Ids of the held-out tasks training never draws. */
  readonly heldOut: ReadonlySet<string>;
  /** What this call created for a new run (undone if it fails before its first step); undefined on resume. */
  readonly created?: "folder" | "files";
}

/** A trainer backend, and the frozen initial policy for the KL term. */
interface OpenedBackend {
  readonly backend: TrainerBackend;
  initialReference(): Promise<ReferenceScorer>;
}

function tinyBackendOf(config: Readonly<TrainConfig>, model: TinyModel, threads: number | undefined): OpenedBackend {
  return { backend: tinyBackend({ model, policy: { maxNewTokens: config.maxNewTokens, temperature: 1, history: config.history } }), initialReference: () => referenceFor(config, threads) };
}

/** The tinker backend of a run (a new model on the base model, or one loaded with a checkpoint's state). */
async function tinkerBackendOf(config: Readonly<TrainConfig>, options: TrainOptions, resumeFrom?: TinkerCheckpoint): Promise<OpenedBackend> {
  if (options.tinker === undefined) throw new ConfigError("tinkerUrl", "a tinker run needs the server's address", "give --tinker-url URL (or set TINKER_BASE_URL)");
  // The renderer's files are read before the first request: a bad --renderer hf:DIR fails without the server.
  const renderer = openRenderer(config.renderer, config.maxNewTokens, config.history, { templateOptions: config.templateOptions, toolCallFormat: config.toolCallFormat });
  const client = createTinkerClient({ ...options.tinker, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  const backend = await openTinkerBackend({
    client, baseModel: config.baseModel as string, loraRank: config.loraRank, seed: config.seed, maxNewTokens: config.maxNewTokens, history: config.history, renderer, groupSampling: config.groupSampling,
    ...(config.contextLength === undefined ? {} : { contextLength: config.contextLength }), ...(resumeFrom === undefined ? {} : { resumeFrom }),
  });
  return { backend, initialReference: () => backend.baseReference() };
}

async function prepare(options: TrainOptions): Promise<Prepared> {
  const configPath = join(options.out, "config.json");
  const outProblem = folderOutputProblem(options.out);
  if (outProblem !== undefined) throw new ConfigError("out", outProblem);
  if (options.resume === true) {
    if (!existsSync(configPath)) throw new ConfigError("out", `nothing to resume in ${options.out} (no config.json)`, "start the run without --resume");
    const config = parseTrainConfig(JSON.parse(await readFile(configPath, "utf8")));
    const env = createEnv(config.env, config.envOptions);
    const heldOut = checkedHeldOut(env, config);
    const latest = await latestCheckpoint(options.out);
    if (config.backend === "tinker") return { config, env, heldOut, backend: await tinkerBackendOf(config, options, latest === undefined ? undefined : await readTinkerCheckpoint(latest[1])), startStep: latest?.[0] ?? 0 };
    if (latest === undefined) return { config, env, heldOut, backend: tinyBackendOf(config, await initialModel(config, options.threads), options.threads), startStep: 0 };
    return { config, env, heldOut, backend: tinyBackendOf(config, await loadCheckpoint(latest[1], options.threads === undefined ? {} : { threads: options.threads }), options.threads), startStep: latest[0] };
  }
  const config = parseTrainConfig(options.config);
  if (existsSync(configPath)) throw new ConfigError("out", `${options.out} already holds a training run`, `continue it with: ${trainResumeCommand(options.out)}, or pick another --out`);
  const env = createEnv(config.env, config.envOptions);
  checkBudgetsFit(config.budget.choices.map((choice) => choice.spec), env, "budget");
  checkBudgetsFit(config.evalBudgets, env, "eval-budget");
  if (config.init !== undefined && !existsSync(join(config.init, "budgetrl.json"))) throw new ConfigError("init", `${config.init} is not a checkpoint (no budgetrl.json)`);
  const heldOut = checkedHeldOut(env, config);
  // Everything that can be refused (a corrupt --init, an unreachable tinker server included) is refused before --out is touched.
  const backend =
    config.backend === "tinker"
      ? await tinkerBackendOf(config, options)
      : tinyBackendOf(
          config,
          await initialModel(config, options.threads).catch((error: unknown) => {
            throw error instanceof BudgetrlError ? error : new ConfigError("init", `cannot load ${config.init ?? "the initial model"}: ${(error as Error).message}`);
          }),
          options.threads,
        );
  const created = existsSync(options.out) ? "files" : "folder";
  try {
    await mkdir(options.out, { recursive: true });
    await writeFile(`${configPath}.tmp`, `${JSON.stringify(encodeTrainConfig(config), null, 2)}\n`);
    await rename(`${configPath}.tmp`, configPath);
  } catch (error) {
    backend.backend.dispose();
    await undoStart(options.out, created);
    throw error;
  }
  return { config, env, heldOut, backend, startStep: 0, created };
}

/** Remove what a new run made before it failed, so that the same command can be run again. */
async function undoStart(out: string, created: "folder" | "files"): Promise<void> {
  if (created === "folder") {
    await rm(out, { recursive: true, force: true });
    return;
  }
  for (const name of ["config.json", "config.json.tmp", "train.db", "train.db-wal", "train.db-shm", CHECKPOINTS]) await rm(join(out, name), { recursive: true, force: true });
}

export async function train(options: TrainOptions): Promise<TrainResult> {
  const prepared = await prepare(options);
  const progress = { steps: 0 };
  try {
    return await trainFrom(prepared, options, progress);
  } catch (error) {
    // A new run that fails before its first step leaves nothing behind; later failures keep it for --resume.
    if (prepared.created !== undefined && progress.steps === 0 && !(error instanceof StoppedError)) await undoStart(options.out, prepared.created);
    throw error;
  }
}

/** Evaluations to recompute on resume: every one after the checkpoint, and the one at it unless it completed. */
async function discardStaleEvaluations(store: Store, config: Readonly<TrainConfig>, startStep: number): Promise<boolean> {
  for (let later = startStep + 1; later <= config.steps; later++) await deleteRun(store, evalRunName(later));
  if (config.evalEvery === 0 || startStep % config.evalEvery !== 0) return false;
  if ((await runExists(store, evalRunName(startStep))) && (await getRun(store, evalRunName(startStep))).status === "complete") return false;
  await deleteRun(store, evalRunName(startStep));
  return true;
}

async function trainFrom(prepared: Prepared, options: TrainOptions, progress: { steps: number }): Promise<TrainResult> {
  const { config, env, startStep } = prepared;
  const backend = prepared.backend.backend;
  const learningRate = warmupCosine({ peak: config.learningRate, warmupSteps: Math.min(config.warmupSteps, config.steps), totalSteps: config.steps, minRatio: 0.1 });
  const evals: EvalPoint[] = [];
  const end = Math.min(config.steps, options.stopAfter ?? config.steps);
  let step = startStep;
  let saved = startStep;
  let store: Store | undefined;
  let reference: ReferenceScorer | undefined;
  try {
    store = await openStore(join(options.out, "train.db"));
    reference = config.kl > 0 ? await prepared.backend.initialReference() : undefined;
    const heldOut = prepared.heldOut;
    try {
      if (await discardStaleEvaluations(store, config, startStep)) evals.push(await evaluateAt(backend, config, options.out, startStep, options));
      while (step < end && options.signal?.aborted !== true) {
        const metrics = await trainStep(backend, env, config, step, learningRate(step), { excluded: heldOut, ...(reference === undefined ? {} : { reference }), ...(options.signal === undefined ? {} : { signal: options.signal }) });
        await writeTrainStep(store, "train", step, metrics as unknown as Json);
        options.onStep?.(metrics, config.steps);
        step++;
        progress.steps++;
        if (config.evalEvery > 0 && step % config.evalEvery === 0) evals.push(await evaluateAt(backend, config, options.out, step, options));
        if (step % config.checkpointEvery === 0 || step === config.steps) {
          await backend.save(checkpointDir(options.out, step));
          saved = step;
        }
      }
    } catch (error) {
      // Ctrl-C in the middle of a step or an evaluation: the step is abandoned, the steps done are kept.
      if (!(error instanceof StoppedError && options.signal?.aborted === true)) throw error;
    }
    if (saved !== step) await backend.save(checkpointDir(options.out, step));
    return { config, stepsDone: step, finished: step === config.steps, weightsDigest: backend.weightsDigest(), evals, checkpoint: checkpointDir(options.out, step) };
  } finally {
    await store?.close();
    reference?.dispose();
    backend.dispose();
  }
}

async function referenceFor(config: Readonly<TrainConfig>, threads: number | undefined): Promise<ReferenceScorer> {
  const model = await initialModel(config, threads);
  return tinyBackend({ model }).reference().finally(() => model.dispose());
}

/** What a step needs besides the config: the frozen reference (KL), the stop signal, the held-out task ids. */
interface StepContext {
  readonly reference?: ReferenceScorer;
  readonly signal?: AbortSignal;
  readonly excluded: ReadonlySet<string>;
}

/** The held-out tasks training never draws: its own evaluation tasks (when it evaluates: the first evalTasks
 * distinct tasks from evalSeed, the tasks its evaluations play) and the config's other held-out set. */
function heldOutIds(env: AnyEnv, config: Readonly<TrainConfig>): Set<string> {
  if (!config.excludeHeldOut) return new Set();
  const ids = config.evalEvery > 0 ? heldOutTaskIds(env, { seed: evalSeedOf(config), tasks: config.evalTasks }, "evalTasks") : new Set<string>();
  if (config.exclude !== undefined) for (const id of heldOutTaskIds(env, config.exclude)) ids.add(id);
  return ids;
}

/** The held-out ids, after refusing (before any work) evaluations or steps with more distinct tasks than the env has. */
function checkedHeldOut(env: AnyEnv, config: Readonly<TrainConfig>): Set<string> {
  if (config.evalEvery > 0) checkDistinctCount(env, config.evalTasks, 0, "evalTasks");
  const ids = heldOutIds(env, config);
  checkDistinctCount(env, config.tasksPerStep, ids.size, "tasksPerStep");
  return ids;
}

function evalSeedOf(config: Readonly<TrainConfig>): number {
  return config.evalSeed ?? deriveSeed(config.seed, "eval");
}

async function trainStep(backend: TrainerBackend, env: AnyEnv, config: Readonly<TrainConfig>, step: number, learningRate: number, context: StepContext): Promise<StepMetrics> {
  const { reference, signal } = context;
  const started = performance.now();
  const processedBefore = backend.processedTokens();
  const policy = backend.policy();
  // generate
  const groups = await rolloutStep(env, policy, { step, totalSteps: config.steps, seed: config.seed, tasksPerStep: config.tasksPerStep, group: config.group, schedule: config.budget, budgetMode: config.budgetMode, budgetScope: config.budgetScope, excluded: context.excluded, ...(signal === undefined ? {} : { signal }) });
  // A policy that failed (a Tinker server that stopped answering) stops the run, resumable, instead of training on error episodes.
  const failed = groups.flat().find((episode) => episode.stopReason === "error");
  if (failed !== undefined) throw new BudgetrlError("train:rollout", `a rollout of step ${step} failed: ${failed.error ?? "policy error"}`, "fix the cause, then continue with --resume");
  const generated = performance.now();
  // score -> advantages
  const examples: PolicyExample[] = [];
  let zeroGradientGroups = 0;
  for (const group of groups) {
    const advantages = advantageEstimator(config.algo).estimate(group, config);
    if (advantages.every((perTurn) => perTurn.every((value) => value === 0))) {
      zeroGradientGroups++;
      continue;
    }
    group.forEach((episode, i) => examples.push(...policyExamples(episode, advantages[i] as number[], policy)));
  }
  // loss -> update
  const update =
    examples.length === 0
      ? { loss: 0, clipFraction: 0, kl: 0, entropy: 0, gradNorm: 0, tokens: 0, updates: 0 }
      : await updatePolicy(backend, examples, { epochs: config.epochs, minibatches: config.minibatches, learningRate, seed: deriveSeed(config.seed, "minibatch", step), clipLow: config.clipLow, clipHigh: config.clipHigh, klCoefficient: config.kl, ...(reference === undefined ? {} : { reference }), ...(config.backendLoss === "none" ? {} : { backendLoss: config.backendLoss }) });
  const episodes = groups.flat();
  const sampledTokens = episodes.reduce((sum, episode) => sum + episode.turns.reduce((inner, turn) => inner + (turn.tokens?.length ?? 0), 0), 0);
  const ended = performance.now();
  const seconds = (ended - started) / 1000;
  return {
    step,
    reward: mean(episodes.map((episode) => episode.return)),
    success: mean(episodes.map((episode) => (episode.success ? 1 : 0))),
    turns: mean(episodes.map((episode) => episode.turnsUsed)),
    invalid: mean(episodes.flatMap((episode) => episode.turns.map((turn) => (turn.invalid ? 1 : 0)))),
    loss: update.loss,
    clipFraction: update.clipFraction,
    kl: update.kl,
    entropy: update.entropy,
    gradNorm: update.gradNorm,
    learningRate,
    tokens: sampledTokens + update.tokens,
    tokensPerSecond: (sampledTokens + update.tokens) / seconds,
    processedTokens: backend.processedTokens() - processedBefore,
    zeroGradientGroups,
    groups: groups.length,
    seconds,
    generateSeconds: (generated - started) / 1000,
    updateSeconds: (ended - generated) / 1000,
    taskIds: groups.map((group) => group[0]?.taskId ?? ""),
  };
}

function evalRunName(step: number): string {
  return `eval-step-${step}`;
}

async function evaluateAt(backend: TrainerBackend, config: Readonly<TrainConfig>, out: string, step: number, options: TrainOptions): Promise<EvalPoint> {
  const result = await evaluate({
    env: config.env,
    envOptions: config.envOptions,
    policy: backend.policy(),
    tasks: config.evalTasks,
    samples: config.evalSamples,
    ks: [1],
    budgets: config.evalBudgets,
    budgetMode: config.budgetMode,
    budgetScope: config.budgetScope,
    seed: evalSeedOf(config),
    bootstrap: 200,
    annotate: false,
    db: join(out, "train.db"),
    run: evalRunName(step),
    concurrency: 256,
    now: () => new Date(0),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (result.interrupted) throw new StoppedError(`evaluation at step ${step} stopped`);
  if (!result.complete) throw new BudgetrlError("train:eval", `evaluation at step ${step} did not finish (${result.errors} policy errors${result.firstError === undefined ? "" : `, first: ${result.firstError}`})`);
  const point = { step, run: result.run, table: result.table };
  options.onEval?.(point);
  return point;
}


