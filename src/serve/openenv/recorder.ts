// `budgetrl env-server --db`: every episode played through the server stored as a run's episode, so that `runs`,
// `show`, `export` and `report` read a trainer's rollouts as they read an evaluation. A server start has its run
// (--run, default env-server-<env>-<timestamp>); a reset whose episode_id is PREFIX/REST goes to run PREFIX. An
// episode is keyed as an evaluation's: (task index, budget label, sample), the sample the next free one for its task
// and budget (counted from what the store holds when a run is first met, so a restarted server adds to a run). The
// run's stored config (an eval config: env, options, seed, policy "openenv-client") lists every budget label and
// holds the largest sample count and task count seen. Each episode is committed before its last reply is sent: a
// killed server loses none that a client saw end. Writes go one at a time, in order; a server that stops marks its
// runs complete (a killed one leaves them running: `show` then says so).
import type { BudgetSpec } from "../../core/budget.js";
import { readBudgetSpec, isBudgetProblem } from "../../core/budget.js";
import type { AnyEnv } from "../../core/env.js";
import type { Episode } from "../../core/episode.js";
import { encodeEvalConfig, parseEvalConfig } from "../../eval/config.js";
import { codeVersion } from "../../eval/code-version.js";
import { completedEpisodeKeys, episodeKey, writeEpisodes } from "../../store/episodes.js";
import { createRun, getRun, runExists, setRunConfig, setRunStatus, storedTask, storeTasks } from "../../store/runs.js";
import type { Store } from "../../store/store.js";
import type { EnvServerConfig } from "./config.js";
import type { ServerTask } from "./server-tasks.js";

export interface Recorder {
  /** The run and sample of an episode about to start. */
  place(
    episodeId: string | undefined,
    taskIndex: number,
    budgetLabel: string,
  ): Promise<{ run: string; sample: number }>;
  record(episode: Episode, task: ServerTask): Promise<void>;
  /** Episodes stored so far. */
  readonly stored: () => number;
  /** Wait for the writes in flight. */
  flush(): Promise<void>;
  /** Mark the runs written to complete (the server stops: nothing to resume in them). */
  finish(): Promise<void>;
}

interface RunBook {
  readonly taken: Set<string>;
  readonly tasks: Set<number>;
  readonly budgets: Map<string, BudgetSpec>;
  samples: number;
  created: boolean;
}

/** The run an episode id names: its prefix before "/", else the server's run. */
export function runOfEpisode(episodeId: string | undefined, serverRun: string): string {
  const slash = episodeId?.indexOf("/") ?? -1;
  return episodeId !== undefined && slash > 0 ? episodeId.slice(0, slash) : serverRun;
}

/** Keeps places without a store (sample numbers count up per task and budget). */
export function createRecorder(
  env: AnyEnv,
  config: Readonly<EnvServerConfig>,
  serverRun: string,
  store: Store | undefined,
  now: () => Date,
): Recorder {
  const books = new Map<string, RunBook>();
  let chain: Promise<void> = Promise.resolve();
  let stored = 0;
  const book = (run: string): RunBook => {
    let found = books.get(run);
    if (found === undefined) {
      found = { taken: new Set(), tasks: new Set(), budgets: new Map(), samples: 0, created: false };
      books.set(run, found);
    }
    return found;
  };
  const runConfig = (entry: RunBook) =>
    encodeEvalConfig(
      parseEvalConfig({
        env: env.spec.name,
        envOptions: config.envOptions,
        policy: "openenv-client",
        tasks: Math.max(1, entry.tasks.size),
        samples: Math.max(1, entry.samples),
        budgets: [...entry.budgets.values()].map((spec) => spec.label),
        budgetMode: config.budgetMode,
        budgetScope: config.budgetScope,
        seed: config.seed,
      }),
    );
  const open = async (run: string, entry: RunBook): Promise<void> => {
    if (store === undefined || entry.created) return;
    entry.created = true;
    if (await runExists(store, run)) {
      for (const key of await completedEpisodeKeys(store, run, undefined, { withErrors: true })) entry.taken.add(key);
      const stored = parseEvalConfig((await getRun(store, run)).config);
      for (const spec of stored.budgets) if (!entry.budgets.has(spec.label)) entry.budgets.set(spec.label, spec);
      entry.samples = Math.max(entry.samples, stored.samples);
      return;
    }
    await createRun(
      store,
      {
        id: run,
        createdAt: now().toISOString(),
        env: env.spec.name,
        policy: "openenv-client",
        seed: config.seed,
        config: runConfig(entry),
        codeVersion: codeVersion(),
        status: "running",
      },
      [],
    );
  };
  const write = async (episode: Episode, task: ServerTask): Promise<void> => {
    if (store === undefined) return;
    const entry = book(episode.run);
    await open(episode.run, entry);
    if (!entry.tasks.has(task.index)) {
      entry.tasks.add(task.index);
      await storeTasks(store, episode.run, [storedTask(env, task.task, task.index, episode.budget.scope)]);
    }
    const spec = readBudgetSpec(episode.budget.label);
    if (!isBudgetProblem(spec)) entry.budgets.set(spec.label, spec);
    entry.samples = Math.max(entry.samples, episode.sample + 1);
    await setRunConfig(store, episode.run, runConfig(entry));
    stored += await writeEpisodes(store, [episode]);
  };
  return {
    async place(episodeId, taskIndex, budgetLabel) {
      const run = runOfEpisode(episodeId, serverRun);
      const entry = book(run);
      const spec = readBudgetSpec(budgetLabel);
      if (!isBudgetProblem(spec) && !entry.budgets.has(spec.label)) entry.budgets.set(spec.label, spec);
      const opened = chain.then(() => open(run, entry));
      chain = opened.catch(() => undefined);
      await opened;
      let sample = 0;
      while (entry.taken.has(episodeKey(taskIndex, budgetLabel, sample))) sample++;
      entry.taken.add(episodeKey(taskIndex, budgetLabel, sample));
      return { run, sample };
    },
    record(episode, task) {
      const done = chain.then(() => write(episode, task));
      chain = done.catch(() => undefined);
      return done;
    },
    stored: () => stored,
    flush: () => chain,
    async finish() {
      await chain;
      if (store === undefined) return;
      for (const [run, entry] of books) if (entry.created) await setRunStatus(store, run, "complete");
    },
  };
}
