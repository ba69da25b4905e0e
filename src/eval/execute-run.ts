// The local executor: playing a prepared run in this process (the default; executor.ts says how runs are played),
// its tasks streamed in chunks (task-stream.ts), the episodes not yet stored, written as they finish; progress after
// every episode; the outcomes read back from the store at the end, the Pass@(K,T) table computed when first read.
//   per chunk of tasks: make/store or read back the tasks -> completed keys of the chunk -> rollouts of the rest
// Memory stays bounded by a chunk whatever `--tasks` is (plus the episodes kept in memory without a store).
// A stop signal ends the run at once: episodes in flight are abandoned (recomputed identically on resume), those
// finished are committed, and the run stays "running" so that `--resume` continues it.
import { taskBudgetBasis, type BudgetBasis } from "../core/budget.js";
import type { PlayableEnv } from "../core/env.js";
import type { Episode } from "../core/episode.js";
import type { Policy } from "../core/policy.js";
import { plannedCount, runEpisodes } from "../agent/run-episodes.js";
import { countOutcomes, firstSuccessesOf } from "../metrics/outcomes.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import {
  completedEpisodeCount,
  completedEpisodeKeys,
  createEpisodeWriter,
  episodeKey,
  type EpisodeWriter,
} from "../store/episodes.js";
import type { Store } from "../store/store.js";
import { setRunStatus } from "../store/runs.js";
import { budgetsToRun, type EvalConfig } from "./config.js";
import type { EvalRunOptions } from "./run-options.js";
import { storedRunOutcomes, tableFor, type RunOutcomes } from "./table.js";
import { streamTasks, taskChunkSize, type TaskMaker } from "./task-stream.js";

/** A run ready to play: its config, env, policy, and where its tasks come from. */
export interface PreparedRun {
  readonly run: string;
  readonly config: Readonly<EvalConfig>;
  readonly env: PlayableEnv;
  readonly policy: Policy;
  readonly taskCount: number;
  /** Tasks below this index are read from the store (resume; 0 for a new run). */
  readonly storedTasks: number;
  /** Makes the tasks not read from the store, in index order (generated: distinct draws that recall the stored ones). */
  readonly tasks?: TaskMaker;
  /** Store the made tasks as the run reaches them (generated tasks; a list is stored whole at the start). */
  readonly persistTasks: boolean;
}

export interface ExecuteOptions {
  readonly runOptions: Readonly<EvalRunOptions>;
  readonly signal?: AbortSignal;
  readonly keepEpisodes?: boolean;
  readonly onStart?: (start: RunStart) => void;
  readonly onProgress?: (done: number, total: number, initial: number) => void;
}

/** What a run is about to do: its name, its episodes, and how many were already stored (resume). */
export interface RunStart {
  readonly run: string;
  readonly total: number;
  readonly initial: number;
}

export interface ExecutedRun {
  readonly episodes: readonly Episode[];
  readonly errors: number;
  /** The error text of the first episode that ended in a policy error. */
  readonly firstError?: string;
  /** Episodes ended by the model's context length (counted as failures). */
  readonly contextLength: number;
  readonly total: number;
  readonly done: number;
  readonly complete: boolean;
  readonly interrupted: boolean;
  /** The Pass@(K,T) table, computed on first call from the outcomes read at the end of the run. */
  readonly table: () => PassAtKTTable;
}

/** How a prepared run's episodes are played (executor.ts picks one): `executeRun` below, or the bullmq executor. */
export type RunExecutor = (
  prepared: PreparedRun,
  store: Store | undefined,
  options: ExecuteOptions,
) => Promise<ExecutedRun>;

const FLUSH_EVERY_MS = 1000;

/** Where finished episodes go: the store (committed in batches, at least every second), the kept list, the counts
 * and the progress callback. */
function episodeSink(
  store: Store | undefined,
  keep: boolean,
  total: number,
  initial: number,
  onProgress: ExecuteOptions["onProgress"],
) {
  const writer: EpisodeWriter | undefined = store === undefined ? undefined : createEpisodeWriter(store);
  const state = {
    episodes: [] as Episode[],
    done: initial,
    errors: 0,
    contextLength: 0,
    firstError: undefined as string | undefined,
  };
  let lastFlush = performance.now();
  const onEpisode = async (episode: Episode): Promise<void> => {
    await writer?.write(episode);
    if (writer !== undefined && performance.now() - lastFlush > FLUSH_EVERY_MS) {
      lastFlush = performance.now();
      await writer.flush();
    }
    if (keep) state.episodes.push(episode);
    if (episode.stopReason === "error") {
      state.errors++;
      state.firstError ??= episode.error;
    } else state.done++;
    if (episode.stopReason === "context_length") state.contextLength++;
    onProgress?.(state.done, total, initial);
  };
  return { state, onEpisode, flush: async () => writer?.flush() };
}

/** The run's tasks, streamed (made ones stored chunk by chunk); `completed()` holds the stored episode keys of the
 * chunk being planned (episodes that ended in a policy error count as not stored unless `withErrors`). */
export function plannedTasks(
  prepared: PreparedRun,
  store: Store | undefined,
  episodesPerTask: number,
  keys: { readonly withErrors?: boolean } = {},
) {
  let completed = new Set<string>();
  const tasks = streamTasks({
    env: prepared.env,
    count: prepared.taskCount,
    scope: prepared.config.budgetScope,
    ...(store === undefined ? {} : { store: { store, run: prepared.run, readBelow: prepared.storedTasks } }),
    ...(prepared.tasks === undefined ? {} : { tasks: prepared.tasks }),
    persist: prepared.persistTasks,
    chunkSize: taskChunkSize(episodesPerTask),
    onChunk: async (from, to) => {
      if (store !== undefined) completed = await completedEpisodeKeys(store, prepared.run, { from, to }, keys);
    },
  });
  return { tasks, completed: () => completed };
}

export async function executeRun(
  prepared: PreparedRun,
  store: Store | undefined,
  options: ExecuteOptions,
): Promise<ExecutedRun> {
  const { run, config, env } = prepared;
  const budgets = budgetsToRun(config);
  const total = plannedCount({ taskCount: prepared.taskCount, budgets, samples: config.samples });
  const initial = store === undefined ? 0 : await completedEpisodeCount(store, run);
  const bases = new Map<number, BudgetBasis>();
  const { tasks, completed } = plannedTasks(prepared, store, budgets.length * config.samples);
  const sink = episodeSink(store, options.keepEpisodes ?? store === undefined, total, initial, options.onProgress);
  options.onStart?.({ run, total, initial });
  options.onProgress?.(initial, total, initial);
  try {
    await runEpisodes(env, prepared.policy, {
      run,
      seed: config.seed,
      tasks: store === undefined ? recordingBases(tasks, env, config, bases) : tasks,
      budgets,
      mode: config.budgetMode,
      scope: config.budgetScope,
      samples: config.samples,
      concurrency: options.runOptions.concurrency,
      turnTimeout: options.runOptions.turnTimeout,
      rollout: { annotate: config.annotate, intervention: config.intervention, keepTokens: true },
      skip: (key) => completed().has(episodeKey(key.taskIndex, key.budgetLabel, key.sample)),
      onEpisode: sink.onEpisode,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } finally {
    await sink.flush();
  }
  const { episodes, done, errors, contextLength, firstError } = sink.state;
  const complete = done === total;
  if (store !== undefined && complete) await setRunStatus(store, run, "complete");
  const outcomes = store === undefined ? memoryOutcomes(episodes, bases) : await storedRunOutcomes(store, run, config);
  return {
    episodes,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    contextLength,
    total,
    done,
    complete,
    interrupted: !complete && options.signal?.aborted === true,
    table: lazyTable(config, outcomes),
  };
}

/** The Pass@(K,T) table of a run's outcomes, computed on first call (the bootstrap is the costly part). */
export function lazyTable(config: Readonly<EvalConfig>, outcomes: RunOutcomes): () => PassAtKTTable {
  let table: PassAtKTTable | undefined;
  return () => (table ??= tableFor(config, outcomes));
}

/** Tasks passed through unchanged, recording each one's budget basis (tables of runs without a store). */
async function* recordingBases(
  tasks: AsyncIterable<unknown>,
  env: PlayableEnv,
  config: Readonly<EvalConfig>,
  into: Map<number, BudgetBasis>,
): AsyncGenerator<unknown> {
  let index = 0;
  for await (const task of tasks) {
    into.set(index++, taskBudgetBasis(env, task, config.budgetScope));
    yield task;
  }
}

function memoryOutcomes(episodes: readonly Episode[], bases: ReadonlyMap<number, BudgetBasis>): RunOutcomes {
  return { counts: countOutcomes(episodes), firstSuccesses: firstSuccessesOf(episodes), bases };
}
