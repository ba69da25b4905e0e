// Evaluating a policy on an env: the library's `evaluate` and the engine behind `budgetrl eval`.
//   config -> env, policy, tasks -> (store: create or resume the run) -> rollouts -> outcomes -> Pass@(K,T)
// Everything is validated before the store is touched: a bad config never creates a store file. With a store
// (`db`), every episode is written as it finishes, and an interrupted run continues with `resume` exactly where it
// stopped: only missing episodes run, with the seeds they would have had. Resume reads the run's stored config and
// tasks; it never creates a store (nothing to resume is an error, and nothing is written). Store faults (locked,
// read-only, damaged, another program's file, an unreachable server) are DataErrors naming the store and the fix.
// How the run is played (concurrency, timeouts, and the executor: in this process, or as jobs for `budgetrl
// worker` processes on a BullMQ queue; run-options.ts, executor.ts) never changes its results.
// What `evaluate` takes is three typed objects and a few hooks (EvalParts): the config (what the run measures, stored
// with it), the run (which run, where, and its run options: never stored) and the client options (how an openai
// policy reaches its server: never stored, carried by bullmq jobs). The CLI builds them directly (`evaluateParts`);
// the library's flat `evaluate({ env, policy, tasks, ... })` is split into them once, at the top, and each step below
// sees only the object it needs.
import { existsSync } from "node:fs";
import { isRemoteEnv, type PlayableEnv } from "../core/env.js";
import type { Episode } from "../core/episode.js";
import { shellWord } from "../core/commands.js";
import { checkBudgetsFit } from "../core/budget.js";
import { ConfigError, DataError } from "../core/errors.js";
import { policyFromFunction, type AgentFunction, type Policy } from "../core/policy.js";
import type { WaitListener } from "../core/wait-notice.js";
import { isOpenEnv, listsActions } from "../envs/openenv/index.js";
import { createPlayableEnv } from "../envs/registry.js";
import { isPolicySpec, policySpecLabel, type PolicySpec } from "../core/policy-spec.js";
import { createPolicy, storedPolicyOptions, type PolicySetup } from "../policies/spec.js";
import { canonicalJson } from "../core/json.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { storeFault } from "../store/faults.js";
import { isPostgresUrl } from "../store/postgres/url.js";
import { openStore, storeLocation, type OpenStoreOptions, type Store } from "../store/open.js";
import { createRun, getRun, latestRunId, runExists, storedTask, storedTaskCount } from "../store/runs.js";
import {
  encodeEvalConfig,
  evalConfigSchema,
  parseEvalConfig,
  type EvalConfig,
  type EvalConfigInput,
} from "./config.js";
import type { PreparedRun, RunStart } from "./execute-run.js";
import { checkExecutable, executorFor } from "./executor.js";
import { parseEvalRunOptions, type EvalRunOptions } from "./run-options.js";
import { parseGivenClientOptions, type GivenClientOptions } from "../policies/openai/options.js";
import {
  checkListedDistinct,
  checkListedPlayable,
  taskSource,
  tasksAreListed,
  type TaskDistinction,
  type TaskSource,
} from "./tasks.js";
import { codeVersion } from "./code-version.js";

/** What `evaluate` takes, flat as library callers write it: the config fields (all optional but env and policy;
 * defaults as in evalConfigSchema), the run (store, name, resume, run options), the client options and the hooks.
 * Split at once into EvalParts (splitEvaluateOptions), validating the run and client options. */
export interface EvaluateOptions
  extends Partial<Omit<EvalConfigInput, "env" | "policy" | "tasks">>, Partial<EvalRunOptions> {
  /** An env name from the registry, or an env object. */
  readonly env: string | PlayableEnv;
  /** A policy spec ("oracle", "noisy-oracle:0.3", ... or a PolicySpec), a Policy, or any async function from
   * conversation to reply. */
  readonly policy: string | PolicySpec | Policy | AgentFunction;
  /** Number of tasks (default 100), or the tasks themselves (each once). */
  readonly tasks?: number | readonly unknown[];
  /** The run store: an SQLite file, or a postgres:// URL (optional: without it everything stays in memory). */
  readonly db?: string;
  /** Run name (default: "<env>-<timestamp>"). */
  readonly run?: string;
  /** Continue the named run (or the latest one in `db`) instead of starting a new one. */
  readonly resume?: boolean;
  /** How an openai policy reaches its server, not stored with the run (clientOptionsSchema: baseUrl, apiKeyEnv,
   * concurrency, rpm, timeoutMs, retries, backoffMs, maxBackoffMs, cache, cacheDir); given again on resume. */
  readonly policyClient?: GivenClientOptions;
  /** Called once the run is named and planned, before its first episode. */
  readonly onStart?: (start: RunStart) => void;
  /** Called after every episode with (done, total, doneBeforeStart). */
  readonly onProgress?: (done: number, total: number, initial: number) => void;
  /** Stops the run at once: finished episodes are kept, the ones in flight are abandoned (resume recomputes them). */
  readonly signal?: AbortSignal;
  /** Told, once a wait for the store (another writer's lock, a lost PostgreSQL server) or for a lost Redis lasted a
   * second, what it waits for and for how long at most (one line); and of an outage of the policy's server (openai:,
   * tinker:) as it starts, once a minute while it lasts and as it ends (default for those: stderr). */
  readonly onWait?: WaitListener;
  /** Keep every episode in the result (default: true without a db, false with one; never with the bullmq executor,
   * whose episodes are played elsewhere: read them from the store). */
  readonly keepEpisodes?: boolean;
  readonly now?: () => Date;
}

/** What the run measures, as given: the config's fields, checked against the env and parsed into an EvalConfig for a
 * new run (planNew). On resume the stored config is used; only a policy given as an object and policy options that
 * must match the stored ones are read. */
export interface EvalConfigRequest extends Partial<Omit<EvalConfigInput, "env" | "policy" | "tasks">> {
  readonly env?: string | PlayableEnv;
  readonly policy?: string | PolicySpec | Policy | AgentFunction;
  readonly tasks?: number | readonly unknown[];
}

/** Which run, where, and how it is played: never stored with it. */
export interface EvalRunRequest {
  /** The run store (none: everything stays in memory). */
  readonly db?: string;
  /** The run's name (default "<env>-<timestamp>"; with resume, the run to continue, default the latest). */
  readonly name?: string;
  readonly resume: boolean;
  /** Concurrency, timeouts, the executor (parsed: parseEvalRunOptions). */
  readonly options: Readonly<EvalRunOptions>;
  readonly keepEpisodes?: boolean;
}

/** What only a library caller or the CLI hands over: callbacks, a stop signal, the clock. */
export interface EvalHooks {
  readonly onStart?: (start: RunStart) => void;
  readonly onProgress?: (done: number, total: number, initial: number) => void;
  readonly signal?: AbortSignal;
  readonly now?: () => Date;
  readonly onWait?: WaitListener;
}

/** An evaluation in its three objects (see the top of this file). */
export interface EvalParts {
  readonly config: EvalConfigRequest;
  readonly run: EvalRunRequest;
  /** The openai client options given (parseGivenClientOptions); never stored. */
  readonly client?: GivenClientOptions;
  readonly hooks?: EvalHooks;
}

export interface EvaluationResult {
  readonly run: string;
  readonly config: Readonly<EvalConfig>;
  /** Pass@(K,T) of the episodes stored so far (computed when first read). */
  readonly table: PassAtKTTable;
  readonly episodes: readonly Episode[];
  /** Episodes that ended in a policy error (not counted; a resumed run retries them). */
  readonly errors: number;
  /** The error text of the first of them. */
  readonly firstError?: string;
  /** Episodes ended by the model's context length in this invocation (counted as failures). */
  readonly contextLength: number;
  /** True when every planned episode finished without a policy error (the run is then marked complete). */
  readonly complete: boolean;
  /** True when the signal stopped the run before every episode finished. */
  readonly interrupted: boolean;
  readonly total: number;
  readonly done: number;
}

/** The config fields of the flat options. */
function pickConfig(options: EvaluateOptions): EvalConfigRequest {
  const given = new Map<string, unknown>(Object.entries(options));
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(evalConfigSchema.shape)) if (given.get(key) !== undefined) fields[key] = given.get(key);
  return fields as EvalConfigRequest;
}

/** The flat options of `evaluate`, split once into the objects each step takes (validating run and client options). */
export function splitEvaluateOptions(options: EvaluateOptions): EvalParts {
  const { db, run: name, resume, keepEpisodes, policyClient, onStart, onProgress, signal, now, onWait } = options;
  const hooks: EvalHooks = {
    ...(onWait === undefined ? {} : { onWait }),
    ...(onStart === undefined ? {} : { onStart }),
    ...(onProgress === undefined ? {} : { onProgress }),
    ...(signal === undefined ? {} : { signal }),
    ...(now === undefined ? {} : { now }),
  };
  return {
    config: pickConfig(options),
    run: {
      ...(db === undefined ? {} : { db }),
      ...(name === undefined ? {} : { name }),
      resume: resume === true,
      options: parseEvalRunOptions(options),
      ...(keepEpisodes === undefined ? {} : { keepEpisodes }),
    },
    ...(policyClient === undefined ? {} : { client: parseGivenClientOptions(policyClient) }),
    hooks,
  };
}

/** The config of a new run: the request's fields, the env's name and the policy's spec (a spec given, or the name of
 * a policy handed over, decoded by the config's policy field), with the policy's options in their stored form. */
function configFrom(request: EvalConfigRequest, env: PlayableEnv, policy: string | PolicySpec): Readonly<EvalConfig> {
  const tasks = typeof request.tasks === "number" ? request.tasks : request.tasks?.length;
  // The env as the config names it: the name given (a registry name or openenv:URL), else the env object's.
  const envName = typeof request.env === "string" ? request.env : env.spec.name;
  if (!isSpecGiven(request.policy)) return givenPolicyConfig({ ...request, env: envName, policy, tasks });
  // A spec's options are validated by its kind and stored with every default filled in.
  const { policyOptions, ...fields } = request;
  const config = parseEvalConfig({ ...fields, env: envName, policy, tasks });
  const stored = storedPolicyOptions(config.policy, policyOptions);
  // The stored form is JSON (Json's arrays are readonly; the config's type takes them as they are).
  return stored === undefined
    ? config
    : Object.freeze({ ...config, policyOptions: stored as NonNullable<EvalConfig["policyOptions"]> });
}

/** The config of a run whose policy is handed over, recorded by its name read as a spec; a name that reads as no
 * spec ("openai", "oracle:sometimes") is refused, saying why. */
function givenPolicyConfig(input: Readonly<Record<string, unknown>>): Readonly<EvalConfig> {
  try {
    return parseEvalConfig(input);
  } catch (error) {
    if (!(error instanceof ConfigError) || error.field !== "policy") throw error;
    throw new ConfigError(
      "policy",
      `the policy handed over is recorded by its name, read as a spec: ${error.reason}`,
      "give it a name of its own (my-agent) or the spec it plays (KIND:ARGUMENT)",
    );
  }
}

type PolicyGiven = NonNullable<EvalConfigRequest["policy"]>;

/** True when the policy is given by its spec (text or PolicySpec), which the registry builds, or not at all. */
function isSpecGiven(policy: PolicyGiven | undefined): policy is string | PolicySpec {
  return typeof policy === "string" || isPolicySpec(policy);
}

/** A policy handed over as an object or a function (not built from a spec). */
function givenPolicy(policy: Policy | AgentFunction): Policy {
  return typeof policy === "function" ? policyFromFunction(policy.name === "" ? "agent" : policy.name, policy) : policy;
}

async function runName(env: string, now: Date, store: Store | undefined): Promise<string> {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const base = `${env}-${stamp}`;
  if (store === undefined) return base;
  let name = base;
  for (let i = 2; await runExists(store, name); i++) name = `${base}-${i}`;
  return name;
}

/** A new run, validated before any store is opened: config, env, policy, and where its tasks come from. */
interface NewRun {
  readonly env: PlayableEnv;
  readonly policy: Policy;
  readonly config: Readonly<EvalConfig>;
  readonly source: TaskSource;
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
function policySetup(
  config: Readonly<EvalConfig>,
  client: GivenClientOptions | undefined,
  onWait: WaitListener | undefined,
): PolicySetup {
  return {
    ...(config.policyOptions === undefined ? {} : { options: config.policyOptions }),
    ...(client === undefined ? {} : { client }),
    runSeed: config.seed,
    ...(onWait === undefined ? {} : { onWait }),
  };
}

/** Tasks handed over as a list (a library call): used as they are, but never one twice. */
function givenTasks(env: PlayableEnv, tasks: readonly unknown[], distinct: TaskDistinction): TaskSource {
  checkListedDistinct(env, tasks, "tasks", (index) => `tasks[${index}]`, distinct);
  checkListedPlayable(env, tasks, "tasks", (index) => `tasks[${index}]`);
  return { kind: "list", tasks };
}

async function planNew(
  request: EvalConfigRequest,
  client: GivenClientOptions | undefined,
  onWait?: WaitListener,
): Promise<NewRun> {
  if (request.env === undefined) throw new ConfigError("env", "a new run needs an env");
  if (request.policy === undefined) throw new ConfigError("policy", "a new run needs a policy");
  const env = await opened(
    typeof request.env === "string" ? createPlayableEnv(request.env, request.envOptions ?? {}) : request.env,
  );
  const given = isSpecGiven(request.policy) ? undefined : givenPolicy(request.policy);
  // A policy handed over is recorded by its name, decoded as a spec ("tiny" for a trainer's own model).
  const config = configFrom(request, env, given === undefined ? (request.policy as string | PolicySpec) : given.name);
  checkBudgetsFit(config.budgets, env, "budget");
  if (config.intervention.kind !== "none" && env.actions.parse === undefined)
    throw new ConfigError(
      "intervention",
      `env ${env.spec.name} cannot judge a reply without playing it (it has no actions.parse)`,
    );
  const oracular = config.policy.kind === "oracle" || config.policy.kind === "noisy-oracle";
  if (given === undefined && env.oracle === undefined && oracular)
    throw new ConfigError(
      "policy",
      `no oracle for this env (${config.env}): the ${config.policy.kind} policy plays from one`,
      "use random, a model (openai:MODEL, tinker:...), or your own agent",
    );
  if (given === undefined && config.policy.kind === "random" && isOpenEnv(env) && !listsActions(env))
    throw new ConfigError(
      "policy",
      `the OpenEnv server's action schema has no finite actions (no enum, const or boolean field) and it sends no valid actions: the random policy has nothing to draw from`,
      "use a model (openai:MODEL, tinker:...) or your own agent",
    );
  const policy = given ?? (await createPolicy(config.policy, policySetup(config, client, onWait)));
  refuseSingleForBudgetAware(config, policy);
  const source = Array.isArray(request.tasks)
    ? givenTasks(env, request.tasks, config.distinct)
    : taskSource(env, config);
  return { env, policy, config, source };
}

/** Name and store a new run (a list of tasks is stored whole now; generated tasks as the run reaches them). */
async function startRun(
  planned: NewRun,
  store: Store | undefined,
  name: string | undefined,
  now: Date,
): Promise<PreparedRun> {
  const { env, policy, config, source } = planned;
  const run = name ?? (await runName(env.spec.name, now, store));
  const listed = source.kind === "list";
  if (store !== undefined) {
    const stored = listed ? source.tasks.map((task, index) => storedTask(env, task, index, config.budgetScope)) : [];
    await createRun(
      store,
      {
        id: run,
        createdAt: now.toISOString(),
        env: env.spec.name,
        policy: policySpecLabel(config.policy),
        seed: config.seed,
        config: encodeEvalConfig(config),
        codeVersion: codeVersion(),
        status: "running",
      },
      stored,
    );
  }
  return {
    run,
    config,
    env,
    policy,
    taskCount: listed ? source.tasks.length : source.count,
    storedTasks: 0,
    tasks: listed ? { make: (index) => source.tasks[index] } : source.draws,
    persistTasks: !listed,
  };
}

/** The run to continue in `store`, with its stored config; stored tasks are read back, missing generated ones made. */
async function prepareResume(
  request: EvalConfigRequest,
  name: string | undefined,
  client: GivenClientOptions | undefined,
  store: Store,
  onWait?: WaitListener,
): Promise<PreparedRun> {
  const run = name ?? (await latestRunId(store));
  if (run === undefined)
    throw new DataError(
      `nothing to resume: ${store.location} has no runs; start one with \`budgetrl eval --db ${shellWord(store.location)}\``,
    );
  const record = await getRun(store, run);
  const config = parseEvalConfig(record.config);
  const env = await opened(
    typeof request.env === "string" || request.env === undefined
      ? createPlayableEnv(config.env, config.envOptions)
      : request.env,
  );
  // The stored spec is rebuilt unless the caller hands over a policy object or function.
  const fromSpec = request.policy === undefined || isSpecGiven(request.policy);
  if (
    fromSpec &&
    request.policyOptions !== undefined &&
    canonicalJson(storedPolicyOptions(config.policy, request.policyOptions)) !== canonicalJson(config.policyOptions)
  ) {
    throw new ConfigError(
      "policyOptions",
      `run ${run} was made with other policy options (${canonicalJson(config.policyOptions ?? {})}); they are part of the run and cannot change on resume`,
      "resume without --policy-opt, or start a new run",
    );
  }
  const setup = policySetup(config, client, onWait);
  const policy =
    request.policy === undefined || isSpecGiven(request.policy)
      ? await createPolicy(config.policy, setup)
      : givenPolicy(request.policy);
  const stored = await storedTaskCount(store, run);
  if (tasksAreListed(env, config))
    return { run, config, env, policy, taskCount: stored, storedTasks: stored, persistTasks: false };
  const source = taskSource(env, config);
  const tasks = source.kind === "generated" ? source.draws : { make: (index: number): unknown => source.tasks[index] };
  return { run, config, env, policy, taskCount: config.tasks, storedTasks: stored, tasks, persistTasks: true };
}

/** How the run's store is opened: how long it waits for another writer (SQLite) or a lost server (PostgreSQL). */
function storeOptions(runOptions: Readonly<EvalRunOptions>, hooks: EvalHooks): OpenStoreOptions {
  return {
    busyTimeoutMs: runOptions.busyTimeout * 1000,
    reconnectMs: runOptions.reconnectTimeout * 1000,
    ...(hooks.signal === undefined ? {} : { signal: hooks.signal }),
    ...(hooks.onWait === undefined ? {} : { onWait: hooks.onWait }),
  };
}

function openForResume(db: string, options: OpenStoreOptions): Promise<Store> {
  if (!isPostgresUrl(db) && !existsSync(db))
    throw new DataError(
      `nothing to resume: ${db} does not exist; check --db, or start a run with \`budgetrl eval --db ${shellWord(db)}\``,
    );
  return openStore(db, { ...options, mode: "write" });
}

/** Evaluate a policy on an env (the flat options of a library call, split once into their typed objects). */
export async function evaluate(options: EvaluateOptions): Promise<EvaluationResult> {
  return evaluateParts(splitEvaluateOptions(options));
}

/** Evaluate from the three objects: the config, the run, the client options (and the hooks). */
export async function evaluateParts(parts: EvalParts): Promise<EvaluationResult> {
  const { config: request, run, client } = parts;
  const hooks = parts.hooks ?? {};
  const now = (hooks.now ?? (() => new Date()))();
  const { db, resume } = run;
  if (run.name !== undefined && run.name.trim() === "")
    throw new ConfigError("run", "a run's name cannot be empty", "leave it out for <env>-<timestamp>");
  checkExecutable(run.options, { db, env: request.env, policy: request.policy });
  // A policy made here from a spec is closed here (a server connection, a cache); one handed over is the caller's.
  const ownPolicy = request.policy === undefined || isSpecGiven(request.policy);
  const playing = (store: Store | undefined) => (prepared: PreparedRun) =>
    closingOwnPolicy(ownPolicy, prepared, () => play(prepared, store, parts, hooks));
  if (db === undefined) {
    if (resume) throw new ConfigError("resume", "needs the store (db) of the run to continue");
    return playing(undefined)(await startRun(await planNew(request, client, hooks.onWait), undefined, run.name, now));
  }
  const planned = resume ? undefined : await planNew(request, client, hooks.onWait);
  let store: Store | undefined;
  try {
    const opening = storeOptions(run.options, hooks);
    store = resume ? await openForResume(db, opening) : await openStore(db, { ...opening, mode: "create" });
    const prepared =
      planned === undefined
        ? await prepareResume(request, run.name, client, store, hooks.onWait)
        : await startRun(planned, store, run.name, now);
    return await playing(store)(prepared);
  } catch (error) {
    throw storeFault(error, storeLocation(db)) ?? error;
  } finally {
    await store?.close();
  }
}

/** Play a run, then close its policy when it was made here from a spec (a server connection, a cache). */
async function closingOwnPolicy(
  own: boolean,
  prepared: PreparedRun,
  work: () => Promise<EvaluationResult>,
): Promise<EvaluationResult> {
  try {
    return await work();
  } finally {
    if (own) await prepared.policy.close?.();
    if (isRemoteEnv(prepared.env)) await prepared.env.close();
  }
}

/** A remote env reached (its schema read; a URL that serves none refused) before anything else is done. */
async function opened(env: PlayableEnv): Promise<PlayableEnv> {
  if (isRemoteEnv(env)) await env.open();
  return env;
}

async function play(
  prepared: PreparedRun,
  store: Store | undefined,
  parts: EvalParts,
  hooks: EvalHooks,
): Promise<EvaluationResult> {
  const { run, client } = parts;
  const execute = await executorFor(run.options, {
    ...(run.db === undefined ? {} : { db: run.db }),
    ...(client === undefined ? {} : { client }),
    ...(hooks.onWait === undefined ? {} : { onWait: hooks.onWait }),
  });
  const executed = await execute(prepared, store, {
    runOptions: run.options,
    ...(hooks.signal === undefined ? {} : { signal: hooks.signal }),
    ...(run.keepEpisodes === undefined ? {} : { keepEpisodes: run.keepEpisodes }),
    ...(hooks.onStart === undefined ? {} : { onStart: hooks.onStart }),
    ...(hooks.onProgress === undefined ? {} : { onProgress: hooks.onProgress }),
  });
  const { episodes, errors, firstError, contextLength, complete, interrupted, total, done } = executed;
  return {
    run: prepared.run,
    config: prepared.config,
    get table(): PassAtKTTable {
      return executed.table();
    },
    episodes,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    contextLength,
    complete,
    interrupted,
    total,
    done,
  };
}
