// The stages of a study, each resumable where it stopped (a stage that finished is skipped on --resume):
//   tasks   the held-out set (ids written to held-out.json)
//   sft     demonstrations from a noisy oracle (never on held-out tasks), then SFT: the base model
//   rl      one RL run per variant, from the same base with the same compute (each resumes from its checkpoint)
//   eval    every model on the held-out tasks: the Pass@(K,T) grid announced and hidden, teacher-forced runs,
//           perturbation runs (each a run in study.db; a finished run is skipped, an interrupted one resumed)
//   report  the analyses and the HTML report (rebuilt every time: it only reads)
// Progress goes to the caller as events; a stop signal ends the stage at once (what finished is kept).
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deriveSeed } from "../core/rng.js";
import { createEnv } from "../envs/registry.js";
import { evaluate } from "../eval/evaluate.js";
import { HELD_OUT_FILE, heldOutFileText } from "../eval/held-out-field.js";
import { heldOutTaskIds } from "../eval/tasks.js";
import { renderStudyHtml } from "../report/html/render.js";
import { buildStudyReport } from "../report/study-build.js";
import type { StudyReport } from "../report/study-model.js";
import { runSft } from "../rl/sft-run.js";
import { train } from "../rl/train.js";
import { withStore } from "../store/open.js";
import { getRun, runExists } from "../store/runs.js";
import type { StudyConfig } from "./config.js";
import { baseDir, evalRuns, heldOutSet, rlDir, rlVariants, studyDb, studyModels, type RlVariant, type StudyEvalRun } from "./plan.js";

export const STAGES = ["tasks", "sft", "rl", "eval", "report"] as const;
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
  readonly out: string;
  readonly signal?: AbortSignal;
  readonly events: StageEvents;
}

const signalOf = (context: StageContext): { signal?: AbortSignal } => (context.signal === undefined ? {} : { signal: context.signal });

/** The held-out task ids: what every model is evaluated on (the eval runs draw the same distinct tasks from the
 * same seed) and what demonstrations and RL leave out. */
export function tasksStage(context: StageContext): string {
  const { config, out } = context;
  const set = heldOutSet(config);
  const ids = [...heldOutTaskIds(createEnv(config.env, config.envOptions), set, "heldOutTasks")];
  writeFileSync(join(out, HELD_OUT_FILE), heldOutFileText(set, ids));
  return `${ids.length} distinct held-out tasks, left out of demonstrations and RL`;
}

export async function sftStage(context: StageContext): Promise<string> {
  const { config, out, events } = context;
  const dir = baseDir(out);
  if (existsSync(join(dir, "budgetrl.json"))) return "base model already trained";
  const resume = existsSync(join(dir, "sft.json"));
  let phase: "demos" | "sft" | undefined;
  const result = await runSft({
    out: dir,
    resume,
    config: {
      env: config.env,
      envOptions: config.envOptions,
      policy: config.demoPolicy,
      tasks: config.demoTasks,
      samples: config.demoSamples,
      // Its own stream: sizing the demonstrations never shifts the RL runs' randomness.
      seed: deriveSeed(config.seed, "sft"),
      modelConfig: config.model,
      steps: config.sftSteps,
      learningRate: config.sftLearningRate,
      maxNewTokens: config.maxNewTokens,
      exclude: heldOutSet(config),
    },
    ...signalOf(context),
    onDemos: (done, total) => {
      if (phase !== "demos") events.job("demonstrations", total, done, "episodes");
      phase = "demos";
      events.progress(done);
    },
    onStep: (step, total) => {
      if (phase !== "sft") events.job("sft", total, step, "steps");
      phase = "sft";
      events.progress(step + 1);
    },
    onNotice: (text) => events.note(text),
  });
  return `base model: ${result.sequences} demonstration sequences, final loss ${result.finalLoss.toFixed(3)}`;
}

/** One RL run, resumed from its newest checkpoint when it was started before. */
async function rlRun(context: StageContext, variant: RlVariant): Promise<string> {
  const { config, out, events } = context;
  const dir = rlDir(out, variant);
  const resume = existsSync(join(dir, "config.json"));
  events.job(variant.name, config.rlSteps, 0, "steps");
  const heldOut = heldOutSet(config);
  const result = await train({
    out: dir,
    resume,
    config: {
      env: config.env,
      envOptions: config.envOptions,
      init: baseDir(out),
      algo: variant.algo,
      budget: variant.budget,
      budgetMode: variant.budgetMode,
      tasksPerStep: config.tasksPerStep,
      group: config.group,
      steps: config.rlSteps,
      seed: config.seed,
      learningRate: config.rlLearningRate,
      warmupSteps: 2,
      reward: "success",
      maxNewTokens: config.maxNewTokens,
      evalEvery: config.trainEvalEvery,
      evalTasks: config.trainEvalTasks,
      evalSeed: heldOut.seed,
      evalSamples: 2,
      evalBudgets: config.budgets.map((spec) => spec.label),
      exclude: heldOut,
      checkpointEvery: Math.max(1, Math.min(config.rlSteps, 10)),
    },
    ...signalOf(context),
    onStep: (metrics) => events.progress(metrics.step + 1),
  });
  return `${variant.name}: ${result.stepsDone}/${config.rlSteps} steps`;
}

export async function rlStage(context: StageContext): Promise<string> {
  const done: string[] = [];
  for (const variant of rlVariants(context.config)) {
    done.push(await rlRun(context, variant));
    if (context.signal?.aborted === true) break;
  }
  return done.join("; ");
}

/** Where an evaluation run stands in the store: absent, interrupted, or complete. */
async function runState(db: string, run: string): Promise<"absent" | "running" | "complete"> {
  if (!existsSync(db)) return "absent";
  return withStore(db, { mode: "read" }, async (store) => ((await runExists(store, run)) ? ((await getRun(store, run)).status === "complete" ? "complete" : "running") : "absent"));
}

async function evalRun(context: StageContext, planned: StudyEvalRun): Promise<void> {
  const { config, out, events } = context;
  const db = studyDb(out);
  const state = await runState(db, planned.run);
  if (state === "complete") return;
  let started = false;
  await evaluate({
    env: config.env,
    envOptions: config.envOptions,
    policy: `tiny:${planned.model.checkpoint}`,
    tasks: config.heldOutTasks,
    samples: planned.samples,
    ks: planned.ks,
    budgets: planned.budgets,
    budgetMode: planned.budgetMode,
    seed: heldOutSet(config).seed,
    bootstrap: 0,
    intervention: planned.intervention,
    db,
    run: planned.run,
    resume: state === "running",
    concurrency: 256,
    ...signalOf(context),
    onProgress: (done, total, initial) => {
      if (!started) events.job(planned.run, total, initial, "episodes");
      started = true;
      events.progress(done);
    },
  });
}

export async function evalStage(context: StageContext): Promise<string> {
  const runs = evalRuns(context.config, studyModels(context.config, context.out));
  for (const run of runs) {
    if (context.signal?.aborted === true) break;
    await evalRun(context, run);
  }
  return `${runs.length} evaluation runs in ${studyDb(context.out)}`;
}

/** The report of the study's runs: models with their runs and roles, the training curves of every RL run. */
export async function reportStage(context: StageContext): Promise<StudyReport> {
  const { config, out } = context;
  const models = studyModels(config, out);
  const runs = evalRuns(config, models);
  const selection = {
    models: models.map((model) => ({ name: model.name, runs: runs.filter((run) => run.model.slug === model.slug).map((run) => run.run) })),
    roles: Object.fromEntries(models.map((model) => [model.name, model.role])),
  };
  const training = rlVariants(config).map((variant) => ({ name: variant.name, dir: rlDir(out, variant), model: variant.name }));
  const report = await withStore(studyDb(out), { mode: "read" }, (store) =>
    buildStudyReport(store, { selection, training, bootstrap: config.bootstrap, seed: config.seed, title: `budgetrl study: ${config.env}, preset ${config.preset}, seed ${config.seed}` }),
  );
  writeFileSync(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(out, "report.html"), renderStudyHtml(report));
  return report;
}
