// The stages of a study, each over every env of the study and resumable where it stopped (a stage that finished is
// skipped on --resume):
//   tasks   each env's held-out set (ids written to <env>/held-out.json)
//   sft     demonstrations from a budget-aware noisy oracle at every budget, announced and hidden (never on
//           held-out tasks), then SFT on the oracle-optimal replies: each env's base model
//   rl      one RL run per variant, from the env's base with the same compute (each resumes from its checkpoint)
//   eval    every model on its env's held-out tasks: the Pass@(K,T) grid and teacher-forced runs, announced and
//           hidden, and recovery runs (each a run in study.db; a finished run is skipped, an interrupted one resumed)
//   report  the analyses and the HTML report (rebuilt every time: it only reads)
// Progress goes to the caller as events; a stop signal ends the stage at once (what finished is kept).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
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
import type { StudyConfig, StudyEnv } from "./config.js";
import { baseDir, envDir, evalRuns, heldOutSet, rlDir, rlVariants, studyDb, studyModels, type RlVariant, type StudyEvalRun } from "./plan.js";

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

/** One env's base model: demonstrations at every budget in both modes, SFT on the oracle-optimal replies. */
async function sftRun(context: StageContext, entry: StudyEnv): Promise<string> {
  const { config, out, events } = context;
  const dir = baseDir(out, entry);
  if (existsSync(join(dir, "budgetrl.json"))) return `${entry.env}: base model already trained`;
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
      imitate: "optimal",
      // Its own stream: sizing the demonstrations never shifts the RL runs' randomness.
      seed: deriveSeed(config.seed, "sft", entry.env),
      modelConfig: config.model,
      steps: config.sftSteps,
      learningRate: config.sftLearningRate,
      maxNewTokens: config.maxNewTokens,
      exclude: heldOutSet(config, entry),
    },
    ...signalOf(context),
    onDemos: (done, total) => {
      if (phase !== "demos") events.job(`${entry.env} demonstrations`, total, done, "episodes");
      phase = "demos";
      events.progress(done);
    },
    onStep: (step, total) => {
      if (phase !== "sft") events.job(`${entry.env} sft`, total, step, "steps");
      phase = "sft";
      events.progress(step + 1);
    },
    onNotice: (text) => events.note(text),
  });
  return `${entry.env}: base model from ${result.sequences} demonstration sequences, final loss ${result.finalLoss.toFixed(3)}`;
}

export async function sftStage(context: StageContext): Promise<string> {
  const done: string[] = [];
  for (const entry of context.config.envs) {
    done.push(await sftRun(context, entry));
    if (context.signal?.aborted === true) break;
  }
  return done.join("; ");
}

/** One RL run, resumed from its newest checkpoint when it was started before. */
async function rlRun(context: StageContext, entry: StudyEnv, variant: RlVariant): Promise<string> {
  const { config, out, events } = context;
  const dir = rlDir(out, entry, variant);
  const resume = existsSync(join(dir, "config.json"));
  events.job(`${entry.env} ${variant.name}`, config.rlSteps, 0, "steps");
  const heldOut = heldOutSet(config, entry);
  const result = await train({
    out: dir,
    resume,
    config: {
      env: entry.env,
      envOptions: entry.envOptions,
      init: baseDir(out, entry),
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
      evalBudgets: entry.budgets.map((spec) => spec.label),
      exclude: heldOut,
      checkpointEvery: Math.max(1, Math.min(config.rlSteps, 10)),
    },
    ...signalOf(context),
    onStep: (metrics) => events.progress(metrics.step + 1),
  });
  return `${entry.env} ${variant.name}: ${result.stepsDone}/${config.rlSteps} steps`;
}

export async function rlStage(context: StageContext): Promise<string> {
  const done: string[] = [];
  for (const entry of context.config.envs) {
    for (const variant of rlVariants(entry)) {
      done.push(await rlRun(context, entry, variant));
      if (context.signal?.aborted === true) return done.join("; ");
    }
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
  const entry = config.envs.find((candidate) => candidate.env === planned.model.env) as StudyEnv;
  let started = false;
  await evaluate({
    env: entry.env,
    envOptions: entry.envOptions,
    policy: `tiny:${planned.model.checkpoint}`,
    tasks: config.heldOutTasks,
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

/** The report of the study's runs: models (one name per role across envs) with their runs and roles, the
 * training curves of every RL run, each claim tested in the env built for it. */
export async function reportStage(context: StageContext): Promise<StudyReport> {
  const { config, out } = context;
  const models = studyModels(config, out);
  const runs = evalRuns(config, models);
  const names = [...new Set(models.map((model) => model.name))];
  const selection = {
    models: names.map((name) => ({ name, runs: runs.filter((run) => run.model.name === name).map((run) => run.run) })),
    roles: Object.fromEntries(models.map((model) => [model.name, model.role])),
  };
  const training = config.envs.flatMap((entry) => rlVariants(entry).map((variant) => ({ name: config.envs.length === 1 ? variant.name : `${variant.name} (${entry.env})`, dir: rlDir(out, entry, variant), model: variant.name })));
  const claimScopes = Object.fromEntries(config.envs.flatMap((entry) => entry.claims.map((claim) => [claim, [entry.env]])));
  const envNames = config.envs.map((entry) => entry.env).join(" + ");
  const report = await withStore(studyDb(out), { mode: "read" }, (store) =>
    buildStudyReport(store, { selection, training, claimScopes, bootstrap: config.bootstrap, seed: config.seed, title: `budgetrl study: ${envNames}, preset ${config.preset}, seed ${config.seed}` }),
  );
  writeFileSync(join(out, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(out, "report.html"), renderStudyHtml(report));
  return report;
}
