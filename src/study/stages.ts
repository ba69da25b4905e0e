// The stages of a study, each over every seed and env of the study and resumable where it stopped (a stage that
// finished is skipped on --resume):
//   tasks   each env's held-out set, the same for every seed (ids written to <env>/held-out.json)
//   ranges  the budget-aware oracle and a uniformly random policy on the held-out tasks (runs ranges/<env>/...): what
//           each of the plan's statistics can show on each env, measured before any model is trained
//   sft     per seed: demonstrations from a budget-aware noisy oracle at every budget, announced and hidden (never on
//           held-out tasks), then SFT on the oracle-optimal replies (where the budget is hidden, on the budget-blind
//           Bayes move: imitate bayes): each env's base model (left out when the base is not made here: a served
//           model, a Tinker service's base model)
//   rl      one RL run per variant, from the env's base with the same compute (each resumes from its checkpoint), in
//           process or one training client each on a Tinker service
//   eval    every model on its env's held-out tasks: the Pass@(K,T) grid and teacher-forced runs, announced and
//           hidden, and recovery runs (each a run in study.db; a finished run is skipped, an interrupted one resumed);
//           each model played as its plan says: in process, through its OpenAI-compatible server, or through the
//           Tinker service's sampler on its checkpoint's sampler weights
//   report  the analyses and the HTML report (rebuilt every time: it only reads)
// Progress goes to the caller as events; a stop signal ends the stage at once (what finished is kept).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BudgetrlError, ConfigError, StoppedError } from "../core/errors.js";
import type { Policy } from "../core/policy.js";
import { policySpecLabel, type PolicySpec } from "../core/policy-spec.js";
import { deriveSeed } from "../core/rng.js";
import { createEnv } from "../envs/registry.js";
import { evaluate, type EvaluateOptions } from "../eval/evaluate.js";
import { storedSamplingOptions, type GivenClientOptions } from "../policies/openai/options.js";
import { HELD_OUT_FILE, heldOutFileText } from "../eval/held-out-field.js";
import { heldOutTaskIds } from "../eval/tasks.js";
import { renderStudyHtml } from "../report/html/render.js";
import { buildStudyReport } from "../report/study-build.js";
import type { StudyPlanHeader, StudyReport } from "../report/study-model.js";
import { runSft } from "../rl/sft-run.js";
import { readTinkerCheckpoint } from "../tinker/checkpoint.js";
import type { TinkerNotice } from "../tinker/client.js";
import { train } from "../rl/train.js";
import { withStore } from "../store/open.js";
import { getRun, runExists } from "../store/runs.js";
import { trainsBase, type StudyConfig, type StudyEnv } from "./config.js";
import {
  baseDir,
  envDir,
  evalRuns,
  finalCheckpoint,
  rangeRuns,
  heldOutSet,
  rlDir,
  rlTrainConfig,
  rlVariants,
  studyDb,
  studyModels,
  studySetup,
  type RlVariant,
  type StudyEvalRun,
  type StudyModelPlan,
} from "./plan.js";
import { heldOutFacts } from "./held-out-facts.js";
import type { StudyReach } from "./sources.js";

export const STAGES = ["tasks", "ranges", "sft", "rl", "eval", "report"] as const;
export type StageName = (typeof STAGES)[number];

/** What a stage tells its caller: a job within it started, advanced or finished. */
export interface StageEvents {
  /** A job of the stage (an RL run, an evaluation run) starts; `total` units of `unit`. */
  job(name: string, total: number, initial: number, unit: string): void;
  progress(done: number): void;
  /** One line worth keeping (a step line, an evaluation's result). */
  note(text: string): void;
}

export interface StageContext {
  readonly config: Readonly<StudyConfig>;
  /** The plan's hash and when it was fixed (study.json), for the report's header. */
  readonly plan: StudyPlanHeader;
  readonly out: string;
  /** How to reach the served base and the Tinker service (never stored). */
  readonly reach: StudyReach;
  /** A running `budgetrl view` of the study folder, which report.html links to (never stored). */
  readonly viewUrl?: string;
  readonly signal?: AbortSignal;
  readonly events: StageEvents;
}

const signalOf = (context: StageContext): { signal?: AbortSignal } =>
  context.signal === undefined ? {} : { signal: context.signal };

/** Each env's held-out task ids: what every model is evaluated on (the eval runs draw the same distinct tasks
 * from the same seed) and what demonstrations and RL leave out. */
export function tasksStage(context: StageContext): string {
  const { config, out } = context;
  const counts = config.envs.map((entry) => {
    const set = heldOutSet(config, entry);
    const ids = [...heldOutTaskIds(createEnv(entry.env, entry.envOptions), set, "heldOutTasks")];
    mkdirSync(envDir(out, entry), { recursive: true });
    writeFileSync(join(envDir(out, entry), HELD_OUT_FILE), heldOutFileText(set, ids));
    return `${entry.env}: ${ids.length}`;
  });
  return `distinct held-out tasks ${counts.join(", ")}, left out of demonstrations and RL`;
}

/** "seed 2 vault" when the study has several seeds, "vault" when it has one. */
function jobName(config: Pick<StudyConfig, "seeds">, seed: number, what: string): string {
  return config.seeds.length > 1 ? `seed ${seed} ${what}` : what;
}

/** One env's base model in one seed: demonstrations at every budget in both modes, SFT on the oracle-optimal replies
 * (the budget-blind Bayes ones where the budget is hidden). */
async function sftRun(context: StageContext, seed: number, entry: StudyEnv): Promise<string> {
  const { config, out, events } = context;
  const dir = baseDir(out, seed, entry);
  const name = jobName(config, seed, entry.env);
  if (existsSync(join(dir, "budgetrl.json"))) return `${name}: base model already trained`;
  const resume = existsSync(join(dir, "sft.json"));
  let phase: "demos" | "sft" | undefined;
  const result = await runSft({
    out: dir,
    resume,
    config: {
      env: entry.env,
      envOptions: entry.envOptions,
      policy: config.demoPolicy,
      tasks: config.demoTasks,
      samples: config.demoSamples,
      budgets: entry.budgets.map((spec) => spec.label),
      budgetModes: ["announced", "hidden"],
      budgetScope: entry.budgetScope,
      imitate: "bayes",
      // Its own stream: sizing the demonstrations never shifts the RL runs' randomness.
      seed: deriveSeed(seed, "sft", entry.env),
      modelConfig: config.model,
      steps: config.sftSteps,
      learningRate: config.sftLearningRate,
      maxNewTokens: config.maxNewTokens,
      exclude: heldOutSet(config, entry),
    },
    ...signalOf(context),
    onDemos: (done, total) => {
      if (phase !== "demos") events.job(`${name} demonstrations`, total, done, "episodes");
      phase = "demos";
      events.progress(done);
    },
    onStep: (step, total) => {
      if (phase !== "sft") events.job(`${name} sft`, total, step, "steps");
      phase = "sft";
      events.progress(step + 1);
    },
    onNotice: (text) => events.note(text),
  });
  return `${name}: base model from ${result.sequences} demonstration sequences, final loss ${result.finalLoss.toFixed(3)}`;
}

/** Why the study makes no base here, or undefined when it does. */
export function sftLeftOut(config: Readonly<StudyConfig>): string | undefined {
  return trainsBase(config) ? undefined : studySetup(config).skipped.join("; ");
}

export async function sftStage(context: StageContext): Promise<string> {
  const leftOut = sftLeftOut(context.config);
  if (leftOut !== undefined) return `skipped: ${leftOut}`;
  const done: string[] = [];
  for (const seed of context.config.seeds)
    for (const entry of context.config.envs) {
      if (context.signal?.aborted === true) return done.join("; ");
      done.push(await sftRun(context, seed, entry));
    }
  return done.join("; ");
}

/** The Tinker service's address, which a study with the Tinker trainer needs at every start (never stored). */
export function tinkerReach(
  context: Pick<StageContext, "reach" | "events">,
): NonNullable<StudyReach["tinker"]> & { onNotice: (notice: TinkerNotice) => void } {
  if (context.reach.tinker === undefined)
    throw new ConfigError(
      "tinkerUrl",
      "a study with the Tinker trainer needs the service's address",
      "give --tinker-url URL (or set TINKER_BASE_URL), again with --resume",
    );
  return { ...context.reach.tinker, onNotice: (notice) => context.events.note(notice.message) };
}

/** One RL run, resumed from its newest checkpoint when it was started before; one whose final checkpoint is
 * written is not opened again (with the Tinker trainer, that would load its state into a new training client). */
async function rlRun(context: StageContext, seed: number, entry: StudyEnv, variant: RlVariant): Promise<string> {
  const { config, out, events } = context;
  const dir = rlDir(out, seed, entry, variant);
  const name = jobName(config, seed, `${entry.env} ${variant.name}`);
  if (existsSync(join(finalCheckpoint(out, seed, entry, variant, config), "budgetrl.json")))
    return `${name}: trained before`;
  if (context.signal?.aborted === true) throw new StoppedError(`stopped before RL run ${name}`);
  const resume = existsSync(join(dir, "config.json"));
  events.job(name, config.rlSteps, 0, "steps");
  const result = await train({
    out: dir,
    resume,
    config: rlTrainConfig(config, out, seed, entry, variant),
    ...(config.trainer.kind === "tinker" ? { tinker: tinkerReach(context) } : {}),
    ...signalOf(context),
    onStep: (metrics) => events.progress(metrics.step + 1),
  });
  return `${name}: ${result.stepsDone}/${config.rlSteps} steps`;
}

export async function rlStage(context: StageContext): Promise<string> {
  const done: string[] = [];
  for (const seed of context.config.seeds)
    for (const entry of context.config.envs)
      for (const variant of rlVariants(entry)) {
        done.push(await rlRun(context, seed, entry, variant));
        if (context.signal?.aborted === true) return done.join("; ");
      }
  return done.join("; ");
}

/** Where an evaluation run stands in the store: absent, interrupted, or complete. */
async function runState(db: string, run: string): Promise<"absent" | "running" | "complete"> {
  if (!existsSync(db)) return "absent";
  return withStore(db, { mode: "read" }, async (store) =>
    (await runExists(store, run))
      ? (await getRun(store, run)).status === "complete"
        ? "complete"
        : "running"
      : "absent",
  );
}

/** How a model is played in its evaluation runs: a spec the registry builds (tiny:CKPT; openai:MODEL with the
 * base's sampling options in their stored form and this invocation's client options as given), or a policy opened
 * here and closed by the caller (a Tinker model, through the service's sampler). */
type EvalPolicy =
  | {
      readonly spec: PolicySpec;
      readonly policyOptions?: EvaluateOptions["policyOptions"];
      readonly policyClient?: GivenClientOptions;
    }
  | { readonly policy: Policy };

async function evalPolicy(context: StageContext, model: StudyEvalRun["model"]): Promise<EvalPolicy> {
  const { config } = context;
  const spec = model.policy;
  switch (spec.kind) {
    case "tiny":
    case "oracle":
    case "random":
      return { spec };
    case "openai": {
      if (config.base.kind !== "openai")
        throw new BudgetrlError(
          "study:plan",
          `model ${model.name} is served, but the study's base is ${config.base.kind}`,
        );
      return {
        spec,
        // The stored form (JSON, defaults filled in), as eval stores a run's policy options.
        policyOptions: storedSamplingOptions(config.base.options) as EvaluateOptions["policyOptions"],
        ...(context.reach.openai === undefined ? {} : { policyClient: context.reach.openai }),
      };
    }
    case "tinker": {
      const trainer = config.trainer;
      if (trainer.kind !== "tinker")
        throw new BudgetrlError(
          "study:plan",
          `model ${model.name} is sampled on a Tinker service, but the study trains in process`,
        );
      const checkpoint = spec.checkpoint === undefined ? undefined : await readTinkerCheckpoint(spec.checkpoint);
      const baseModel = spec.baseModel ?? trainer.baseModel;
      // Built as the registered kind tinker: builds it (tinker/eval-policy.ts: renderer, client, sampler opened on
      // the first turn), with the study's reach and trainer options: the study's reach carries the API key itself,
      // not the name of its variable, so the policy is handed over built rather than as a spec. Loaded here: the
      // wire format and the Hugging Face renderer are only for studies that sample on Tinker.
      const { openTinkerEvalPolicy } = await import("../tinker/eval-policy.js");
      const policy = openTinkerEvalPolicy({
        name: policySpecLabel(spec),
        source: checkpoint === undefined ? { baseModel } : { checkpoint },
        options: {
          renderer: trainer.renderer,
          templateOptions: trainer.templateOptions,
          toolCallFormat: trainer.toolCallFormat,
          temperature: 1,
          maxNewTokens: checkpoint?.maxNewTokens ?? config.maxNewTokens,
          contextLength: trainer.contextLength,
        },
        client: { concurrency: 64, cache: false },
        reach: { ...tinkerReach(context), ...signalOf(context) },
      });
      return { policy };
    }
    default:
      throw new BudgetrlError(
        "study:plan",
        `model ${model.name} has policy ${policySpecLabel(spec)}, which a study does not make`,
      );
  }
}

/** One evaluation run; `policyOf` opens the model's policy the first time a run needs it (a model's runs share it). */
async function evalRun(
  context: StageContext,
  planned: StudyEvalRun,
  policyOf: () => Promise<EvalPolicy>,
): Promise<void> {
  const { config, out, events } = context;
  const db = studyDb(out);
  const state = await runState(db, planned.run);
  if (state === "complete") return;
  const entry = config.envs.find((candidate) => candidate.env === planned.model.env) as StudyEnv;
  let started = false;
  const played = await policyOf();
  const result = await evaluate({
    env: entry.env,
    envOptions: entry.envOptions,
    ...("policy" in played
      ? { policy: played.policy }
      : {
          policy: played.spec,
          ...(played.policyOptions === undefined ? {} : { policyOptions: played.policyOptions }),
          ...(played.policyClient === undefined ? {} : { policyClient: played.policyClient }),
        }),
    budgetScope: entry.budgetScope,
    tasks: config.heldOutTasks,
    distinct: entry.heldOut,
    samples: planned.samples,
    ks: planned.ks,
    budgets: planned.budgets,
    budgetMode: planned.budgetMode,
    seed: heldOutSet(config, entry).seed,
    bootstrap: 0,
    intervention: planned.intervention,
    db,
    run: planned.run,
    resume: state === "running",
    concurrency: 256,
    ...signalOf(context),
    // A served model's outage is said as the study's notes are (a line each, above the progress line).
    onWait: (line) => events.note(line),
    onProgress: (done, total, initial) => {
      if (!started) events.job(planned.run, total, initial, "episodes");
      started = true;
      events.progress(done);
    },
  });
  if (result.interrupted) throw new StoppedError(`evaluation run ${planned.run} stopped`);
  // A model that could not be reached (a server down, a bad key) stops the study, resumable, instead of a report
  // over the episodes that happened to get through.
  if (!result.complete)
    throw new BudgetrlError(
      "study:eval",
      `evaluation run ${planned.run}: ${result.errors} episodes ended in a policy error${result.firstError === undefined ? "" : ` (first: ${result.firstError})`}`,
      `fix the cause, then continue with: budgetrl reproduce --out ${out} --resume`,
    );
}

/** Each model's runs, model by model: a policy opened here (a Tinker sampling session) serves all of its model's
 * runs, then closes. */
async function evalModels(
  context: StageContext,
  models: readonly StudyEvalRun["model"][],
  runs: readonly StudyEvalRun[],
): Promise<void> {
  for (const model of models) {
    let opened: Promise<EvalPolicy> | undefined;
    try {
      for (const run of runs.filter((candidate) => candidate.model === model)) {
        if (context.signal?.aborted === true) break;
        await evalRun(context, run, () => (opened ??= evalPolicy(context, model)));
      }
    } finally {
      const played = await opened?.catch(() => undefined);
      if (played !== undefined && "policy" in played) await played.policy.close?.();
    }
    if (context.signal?.aborted === true) break;
  }
}

export async function evalStage(context: StageContext): Promise<string> {
  const models = studyModels(context.config, context.out);
  const runs = evalRuns(context.config, models);
  await evalModels(context, models, runs);
  return `${runs.length} evaluation runs in ${studyDb(context.out)}`;
}

/** The ranges: the oracle and a random policy on each env's held-out tasks, before any training. */
export async function rangesStage(context: StageContext): Promise<string> {
  const runs = rangeRuns(context.config);
  const models = [...new Set(runs.map((run) => run.model))];
  await evalModels(context, models, runs);
  return `${runs.length} runs of the oracle and a random policy in ${studyDb(context.out)}`;
}

/** The report of the study's runs: models (one name per role across envs and seeds) with their runs and roles, each
 * seed's runs (the findings replicate over them), the ranges' runs, the training curves of every RL run, the plan. */
export async function reportStage(context: StageContext): Promise<StudyReport> {
  const { config, out } = context;
  const models = studyModels(config, out);
  const runs = evalRuns(config, models);
  // One model per name across envs and seeds (its role the same everywhere); the source of its first plan.
  const names = [...new Set(models.map((model) => model.name))];
  const selection = {
    models: names.map((name) => {
      const first = models.find((model) => model.name === name) as StudyModelPlan;
      return {
        name,
        runs: runs.filter((run) => run.model.name === name).map((run) => run.run),
        role: first.role,
        source: first.source,
      };
    }),
  };
  const replicates = config.seeds.map((seed) => ({
    seed,
    runs: runs.filter((run) => (run.model as StudyModelPlan).seed === seed).map((run) => run.run),
  }));
  const ranges = rangeRuns(config);
  const references = {
    oracle: ranges.filter((run) => run.model.name === "oracle").map((run) => run.run),
    random: ranges.filter((run) => run.model.name === "random").map((run) => run.run),
  };
  const several = config.seeds.length > 1;
  const training = config.seeds.flatMap((seed) =>
    config.envs.flatMap((entry) =>
      rlVariants(entry).map((variant) => ({
        name: `${variant.name}${config.envs.length === 1 && !several ? "" : ` (${[...(config.envs.length === 1 ? [] : [entry.env]), ...(several ? [`seed ${seed}`] : [])].join(", ")})`}`,
        dir: rlDir(out, seed, entry, variant),
        model: variant.name,
      })),
    ),
  );
  const envNames = config.envs.map((entry) => entry.env).join(" + ");
  const report = await withStore(studyDb(out), { mode: "read" }, (store) =>
    buildStudyReport(store, {
      selection,
      replicates,
      references,
      plan: context.plan,
      heldOut: heldOutFacts(config, out),
      training,
      setup: studySetup(config),
      bootstrap: config.bootstrap,
      seed: config.heldOutSeed,
      title: `budgetrl study: ${envNames}, preset ${config.preset}, ${several ? `seeds ${config.seeds.join(", ")}` : `seed ${config.seeds[0]}`}`,
    }),
  );
  writeFileSync(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(
    join(out, "report.html"),
    renderStudyHtml(report, context.viewUrl === undefined ? {} : { viewUrl: context.viewUrl }),
  );
  return report;
}
