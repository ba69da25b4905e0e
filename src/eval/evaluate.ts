// Evaluating a policy on an env: the library's `evaluate` and the engine behind `budgetrl eval`.
//   config -> env, policy, tasks -> (store: create or resume the run) -> rollouts -> outcomes -> Pass@(K,T)
// With a store (`db`), every episode is written as it finishes, and an interrupted run continues with
// `resume` exactly where it stopped: only missing episodes run, with the seeds they would have had.
import type { AnyEnv } from "../core/env.js";
import { ConfigError } from "../core/errors.js";
import type { Episode } from "../core/episode.js";
import { policyFromFunction, type AgentFunction, type Policy } from "../core/policy.js";
import { runEpisodes, plannedCount } from "../agent/run-episodes.js";
import { createEnv } from "../envs/registry.js";
import { createPolicy, storedPolicyOptions, type PolicySetup } from "../policies/spec.js";
import { canonicalJson } from "../core/json.js";
import { countOutcomes, firstSuccessesOf } from "../metrics/outcomes.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { completedEpisodeKeys, createEpisodeWriter, episodeKey, type EpisodeWriter } from "../store/episodes.js";
import { openStore, type Store } from "../store/open.js";
import { createRun, getRun, latestRunId, loadTasks, runExists, setRunStatus } from "../store/runs.js";
import { budgetsToRun, encodeEvalConfig, evalConfigSchema, parseEvalConfig, type EvalConfig, type EvalConfigInput } from "./config.js";
import { storedRunOutcomes, tableFor, type RunOutcomes } from "./table.js";
import { resolveTasks } from "./tasks.js";
import { codeVersion } from "./code-version.js";

/** What `evaluate` takes: the config fields (all optional but env and policy; defaults as in evalConfigSchema) and
 * how to run it (store, resume, concurrency, progress). */
export interface EvaluateOptions extends Partial<Omit<EvalConfigInput, "env" | "policy" | "tasks">> {
  /** An env name from the registry, or an env object. */
  readonly env: string | AnyEnv;
  /** A policy spec ("oracle", "noisy-oracle:0.3", ...), a Policy, or any async function from conversation to reply. */
  readonly policy: string | Policy | AgentFunction;
  /** Number of tasks (default 100), or the tasks themselves. */
  readonly tasks?: number | readonly unknown[];
  /** SQLite file to store the run in (optional: without it everything stays in memory). */
  readonly db?: string;
  /** Run name (default: "<env>-<timestamp>"). */
  readonly run?: string;
  /** Continue the named run (or the latest one in `db`) instead of starting a new one. */
  readonly resume?: boolean;
  readonly concurrency?: number;
  /** How to run the policy, not stored with the run (openai: baseUrl, apiKeyEnv, concurrency, rpm, timeoutMs,
   * retries, backoffMs, maxBackoffMs, cache, cacheDir); given again on resume. */
  readonly policyClient?: Readonly<Record<string, unknown>>;
  /** Called after every episode with (done, total, doneBeforeStart). */
  readonly onProgress?: (done: number, total: number, initial: number) => void;
  readonly signal?: AbortSignal;
  /** Keep every episode in the result (default: true without a db, false with one). */
  readonly keepEpisodes?: boolean;
  readonly now?: () => Date;
}

export interface EvaluationResult {
  readonly run: string;
  readonly config: Readonly<EvalConfig>;
  readonly table: PassAtKTTable;
  readonly episodes: readonly Episode[];
  /** Episodes that ended in a policy error (not counted; a resumed run retries them). */
  readonly errors: number;
  /** Episodes ended by the model's context length in this invocation (counted as failures). */
  readonly contextLength: number;
  /** True when the signal stopped the run before every episode finished. */
  readonly interrupted: boolean;
  readonly total: number;
  readonly done: number;
}

function configFrom(options: EvaluateOptions, env: AnyEnv, policyName: string): Readonly<EvalConfig> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(evalConfigSchema.shape)) fields[key] = (options as unknown as Record<string, unknown>)[key];
  const tasks = typeof options.tasks === "number" ? options.tasks : options.tasks?.length;
  return parseEvalConfig({ ...fields, env: env.name, policy: policyName, tasks });
}

async function policyOf(spec: EvaluateOptions["policy"], setup: PolicySetup): Promise<Policy> {
  if (typeof spec === "string") return createPolicy(spec, setup);
  if (typeof spec === "function") return policyFromFunction(policyNameOf(spec), spec);
  return spec;
}

function runName(env: string, now: Date, store: Store | undefined): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const base = `${env}-${stamp}`;
  if (store === undefined) return base;
  let name = base;
  for (let i = 2; runExists(store, name); i++) name = `${base}-${i}`;
  return name;
}

interface Prepared {
  readonly run: string;
  readonly config: Readonly<EvalConfig>;
  readonly env: AnyEnv;
  readonly policy: Policy;
  /** True when the policy was made here from its spec (and is closed here). */
  readonly ownsPolicy: boolean;
  readonly tasks: readonly unknown[];
}

/** Protocol "single" reads smaller budgets off one run at the largest: wrong for a policy that plays by the turns left. */
function refuseSingleForBudgetAware(config: Readonly<EvalConfig>, policy: Policy): void {
  if (config.protocol !== "single" || policy.knowsBudget !== true) return;
  throw new ConfigError(
    "protocol",
    `policy ${policy.name} plays by the turns left even when the budget is hidden, so one run at the largest T does not show how it plays at smaller ones`,
    "use --protocol separate, or a policy that ignores the budget (e.g. oracle:unbounded)",
  );
}

/** What a policy is built with: its stored options, this invocation's client options, the run's seed. */
function policySetup(config: Readonly<EvalConfig>, options: EvaluateOptions): PolicySetup {
  return { ...(config.policyOptions === undefined ? {} : { options: config.policyOptions }), ...(options.policyClient === undefined ? {} : { client: options.policyClient }), runSeed: config.seed };
}

function policyNameOf(spec: EvaluateOptions["policy"]): string {
  if (typeof spec === "string") return spec;
  return typeof spec === "function" ? (spec.name === "" ? "agent" : spec.name) : spec.name;
}

async function prepareNew(options: EvaluateOptions, store: Store | undefined, now: Date): Promise<Prepared> {
  const env = typeof options.env === "string" ? createEnv(options.env, options.envOptions ?? {}) : options.env;
  const policyOptions = typeof options.policy === "string" ? storedPolicyOptions(options.policy, options.policyOptions) : options.policyOptions;
  const config = configFrom({ ...options, policyOptions: policyOptions as EvaluateOptions["policyOptions"] }, env, policyNameOf(options.policy));
  const policy = await policyOf(options.policy, policySetup(config, options));
  refuseSingleForBudgetAware(config, policy);
  if (config.intervention.kind !== "none" && env.parseAction === undefined) throw new ConfigError("intervention", `env ${env.name} cannot judge a reply without playing it (it has no parseAction)`);
  const tasks = Array.isArray(options.tasks) ? options.tasks : resolveTasks(env, config);
  const run = options.run ?? runName(env.name, now, store);
  if (store !== undefined) {
    const stored = tasks.map((task, index) => ({ index, id: env.taskId(task), task: env.encodeTask(task), referenceBudget: env.referenceBudget(task, config.budgetScope) }));
    createRun(store, { id: run, createdAt: now.toISOString(), env: env.name, policy: config.policy, seed: config.seed, config: encodeEvalConfig(config), codeVersion: codeVersion(), status: "running" }, stored);
  }
  return { run, config, env, policy, ownsPolicy: typeof options.policy === "string", tasks };
}

async function prepareResume(options: EvaluateOptions, store: Store): Promise<Prepared> {
  const run = options.run ?? latestRunId(store);
  if (run === undefined) throw new Error(`nothing to resume: ${store.path} has no runs`);
  const record = getRun(store, run);
  const config = parseEvalConfig(record.config);
  const env = typeof options.env === "string" || options.env === undefined ? createEnv(config.env, config.envOptions) : options.env;
  // The stored spec is rebuilt unless the caller hands over a policy object or function.
  const fromSpec = typeof options.policy === "string" || options.policy === undefined;
  if (fromSpec && options.policyOptions !== undefined && canonicalJson(storedPolicyOptions(config.policy, options.policyOptions)) !== canonicalJson(config.policyOptions)) {
    throw new ConfigError("policyOptions", `run ${run} was made with other policy options (${canonicalJson(config.policyOptions ?? {})}); they are part of the run and cannot change on resume`, "resume without --policy-opt, or start a new run");
  }
  const setup = policySetup(config, options);
  const policy = fromSpec ? await createPolicy(config.policy, setup) : await policyOf(options.policy, setup);
  const tasks = loadTasks(store, run).map((stored) => env.decodeTask(stored.task));
  return { run, config, env, policy, ownsPolicy: fromSpec, tasks };
}

export async function evaluate(options: EvaluateOptions): Promise<EvaluationResult> {
  const store = options.db === undefined ? undefined : openStore(options.db);
  try {
    const now = (options.now ?? (() => new Date()))();
    const prepared = options.resume === true && store !== undefined ? await prepareResume(options, store) : await prepareNew(options, store, now);
    try {
      return await execute(prepared, options, store);
    } finally {
      if (prepared.ownsPolicy) await prepared.policy.close?.();
    }
  } finally {
    store?.close();
  }
}

async function execute(prepared: Prepared, options: EvaluateOptions, store: Store | undefined): Promise<EvaluationResult> {
  const { run, config, env, policy, tasks } = prepared;
  const budgets = budgetsToRun(config);
  const completed = store === undefined ? new Set<string>() : completedEpisodeKeys(store, run);
  const total = plannedCount({ tasks, budgets, samples: config.samples });
  const initial = completed.size;
  const keep = options.keepEpisodes ?? store === undefined;
  const episodes: Episode[] = [];
  const writer: EpisodeWriter | undefined = store === undefined ? undefined : createEpisodeWriter(store);
  let done = initial;
  let errors = 0;
  let contextLength = 0;
  let lastFlush = performance.now();
  options.onProgress?.(done, total, initial);
  try {
    await runEpisodes(env, policy, {
      run,
      seed: config.seed,
      tasks,
      budgets,
      mode: config.budgetMode,
      scope: config.budgetScope,
      samples: config.samples,
      concurrency: options.concurrency ?? 1,
      rollout: { annotate: config.annotate, intervention: config.intervention, keepTokens: true },
      skip: (key) => completed.has(episodeKey(key.taskIndex, key.budgetLabel, key.sample)),
      onEpisode: (episode) => {
        writer?.write(episode);
        if (writer !== undefined && performance.now() - lastFlush > 1000) {
          writer.flush();
          lastFlush = performance.now();
        }
        if (keep) episodes.push(episode);
        if (episode.stopReason === "error") errors++;
        else done++;
        if (episode.stopReason === "context_length") contextLength++;
        options.onProgress?.(done, total, initial);
      },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } finally {
    writer?.flush();
  }
  const interrupted = options.signal?.aborted === true || done < total;
  if (store !== undefined && !interrupted) setRunStatus(store, run, "complete");
  const table = tableFor(config, outcomesOf(store, run, config, env, tasks, episodes));
  return { run, config, table, episodes, errors, contextLength, interrupted, total, done };
}

function outcomesOf(store: Store | undefined, run: string, config: Readonly<EvalConfig>, env: AnyEnv, tasks: readonly unknown[], episodes: readonly Episode[]): RunOutcomes {
  if (store !== undefined) return storedRunOutcomes(store, run, config);
  const referenceBudgets = new Map(tasks.map((task, index) => [index, env.referenceBudget(task, config.budgetScope)]));
  return { counts: countOutcomes(episodes), firstSuccesses: firstSuccessesOf(episodes), referenceBudgets };
}
