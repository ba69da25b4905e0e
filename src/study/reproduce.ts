// `reproduce`: the whole study, stage by stage, resumable at every stage. A new study writes its config to
// <out>/study.json first, with its analysis plan, the plan's hash and when it was fixed (before any stage ran);
// `resume` reads it back (a different preset or env on resume is refused: the stored config wins; a plan that
// changed after the study had results is refused), skips the stages recorded as finished in <out>/stages.json and continues the one that was
// interrupted from where its own resume mechanism left it (SFT demonstrations, RL checkpoints, evaluation runs).
// Same seed, same tables: every stage is seeded from the study seed. A new study whose env has too few distinct tasks
// for its held-out, demonstration and per-step training tasks is refused before anything is written, and so is one
// whose RL runs' train configs would be refused (a renderer folder without a tokenizer, a budget the env cannot
// size), or whose Tinker service is not given or does not serve the trainer's base model (checked again on resume);
// so is a bad client option of the served base (the reach is read first, on resume too).
// A study whose base is not made here (a served model, a Tinker service's base model) leaves the sft stage out.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkBudgetsFit } from "../core/budget.js";
import { envLabel } from "../core/env.js";
import { ConfigError } from "../core/errors.js";
import { folderOutputProblem } from "../core/output-path.js";
import { createEnv } from "../envs/registry.js";
import { checkDistinctCount } from "../eval/tasks.js";
import { analysisPlanHash, parseAnalysisPlan } from "../report/analysis-plan.js";
import type { StudyPlanHeader, StudyReport } from "../report/study-model.js";
import { parseTrainConfig } from "../rl/train-config.js";
import { encodeStudyConfig, parseStudyConfig, studyConfig, type StudyChoice, type StudyConfig } from "./config.js";
import { rlTrainConfig, rlVariants } from "./plan.js";
import { parseStudyReach, type StudyReach } from "./sources.js";
import {
  evalStage,
  rangesStage,
  reportStage,
  rlStage,
  sftLeftOut,
  sftStage,
  STAGES,
  tasksStage,
  tinkerReach,
  type StageContext,
  type StageEvents,
  type StageName,
} from "./stages.js";

export interface ReproduceOptions {
  /** The study folder. */
  readonly out: string;
  /** A new study's preset, env and seeds (ignored on resume: the stored config wins). */
  readonly study?: StudyChoice;
  /** An analysis plan (JSON, as study.json holds it) for a new study; on resume, refused unless it is the stored one. */
  readonly plan?: unknown;
  /** The clock that stamps when the plan was fixed. */
  readonly now?: () => Date;
  readonly resume?: boolean;
  /** How to reach the served base (its openai client options, typed) and the Tinker service (never stored; given
   * again on resume). */
  readonly reach?: StudyReach;
  /** The address of a running `budgetrl view` of the study folder: report.html links its budget table there. */
  readonly viewUrl?: string;
  readonly signal?: AbortSignal;
  /** A stage starts, ends with a one-line summary, was done before (skipped), or is not part of this study
   * (omitted, with why: the sft stage of a study whose base is not made here). */
  readonly onStage?: (stage: StageName, status: "start" | "done" | "skipped" | "omitted", summary?: string) => void;
  readonly events?: StageEvents;
}

export interface ReproduceResult {
  readonly config: Readonly<StudyConfig>;
  /** True when every stage finished (false: stopped by the signal). */
  readonly finished: boolean;
  readonly report?: StudyReport;
  readonly reportPath: string;
}

const QUIET: StageEvents = { job: () => undefined, progress: () => undefined, note: () => undefined };

/** Whether the stop signal fired (read fresh each time: it fires during the awaits). */
function stopped(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8")) as unknown;
}

/** What study.json holds besides the config: the plan's hash and when the plan was fixed (before any stage). */
interface StoredPlan {
  readonly planHash: string;
  readonly planFixedAt: string;
}

/** Whether a study has results a plan could have been chosen after (a stage past the ranges finished). */
function hasResults(out: string): boolean {
  const done = finishedStages(out);
  return (["sft", "rl", "eval", "report"] as const).some((stage) => done.has(stage));
}

/** The stored config and plan of a study to resume: refused when it predates analysis plans, and when its plan was
 * changed (study.json edited, or --plan given) after the study had results. */
async function resumedStudy(
  options: ReproduceOptions,
  path: string,
): Promise<{ config: Readonly<StudyConfig>; plan: StudyPlanHeader }> {
  const json = readJson(path) as Record<string, unknown>;
  if (json.plan === undefined || typeof json.planHash !== "string")
    throw new ConfigError(
      "out",
      `${path} was made by an earlier budgetrl, before studies fixed an analysis plan`,
      `start a new study: budgetrl reproduce --out ANOTHER_FOLDER`,
    );
  const stored = parseStudyConfig(json);
  const hash = analysisPlanHash(stored.plan);
  const fixedAt = typeof json.planFixedAt === "string" ? json.planFixedAt : "an unknown time";
  const given = options.plan === undefined ? undefined : parseAnalysisPlan(options.plan);
  const changed =
    hash !== json.planHash
      ? `the analysis plan in ${path} is not the one fixed at ${fixedAt} (hash ${json.planHash.slice(0, 12)} then, ${hash.slice(0, 12)} now)`
      : given !== undefined && analysisPlanHash(given) !== hash
        ? `--plan differs from the plan the study fixed at ${fixedAt} (hash ${hash.slice(0, 12)})`
        : null;
  if (changed !== null && hasResults(options.out))
    throw new ConfigError(
      "plan",
      `${changed}, and the study already has results: a plan may not change after its data exists`,
      "resume with the stored plan (restore study.json, drop --plan), or start a new study with the new plan",
    );
  if (changed !== null)
    throw new ConfigError(
      "plan",
      `${changed}`,
      "a study keeps the plan it was started with: start a new study to change it",
    );
  await checkStudyRuns(stored, options);
  return {
    config: stored,
    plan: {
      plan: stored.plan,
      hash,
      fixedAt,
      changedAfterResults: null,
      source: `fixed in ${path} when the study started`,
    },
  };
}

/** The study's config and plan: made and stored for a new study (the plan fixed now, before any stage, with its
 * hash), read back on resume; refused before any work when its RL runs could not start or its servers are not
 * given. */
async function studyOf(options: ReproduceOptions): Promise<{ config: Readonly<StudyConfig>; plan: StudyPlanHeader }> {
  const path = join(options.out, "study.json");
  const outProblem = folderOutputProblem(options.out);
  if (outProblem !== undefined) throw new ConfigError("out", outProblem);
  if (options.resume === true) {
    if (!existsSync(path))
      throw new ConfigError(
        "out",
        `nothing to resume in ${options.out} (no study.json)`,
        `start it with: budgetrl reproduce --out ${options.out}`,
      );
    return resumedStudy(options, path);
  }
  if (existsSync(path))
    throw new ConfigError(
      "out",
      `${options.out} already holds a study`,
      `continue it with: budgetrl reproduce --out ${options.out} --resume, or pick another --out`,
    );
  if (options.study === undefined) throw new ConfigError("preset", "a new study needs a preset and an env");
  const config = studyConfig({ ...options.study, ...(options.plan === undefined ? {} : { plan: options.plan }) });
  checkStudyTasks(config);
  await checkStudyRuns(config, options);
  const stored: StoredPlan = {
    planHash: analysisPlanHash(config.plan),
    planFixedAt: (options.now ?? (() => new Date()))().toISOString(),
  };
  try {
    mkdirSync(options.out, { recursive: true });
    writeFileSync(path, `${JSON.stringify({ ...(encodeStudyConfig(config) as object), ...stored }, null, 2)}\n`);
  } catch (error) {
    // A folder that cannot be written (permissions, a full disk): said in one line, before any stage.
    throw new ConfigError("out", `cannot write ${options.out}: ${(error as Error).message}`);
  }
  return {
    config,
    plan: {
      plan: config.plan,
      hash: stored.planHash,
      fixedAt: stored.planFixedAt,
      changedAfterResults: null,
      source: `fixed in ${path} when the study started`,
    },
  };
}

/** Refuses, before anything is written, a study whose env config has too few distinct tasks (when the env can say):
 * the held-out tasks and the demonstration tasks are drawn distinct and apart, and each RL step's tasks distinct and
 * outside the held-out set. */
function checkStudyTasks(config: Readonly<StudyConfig>): void {
  for (const entry of config.envs) {
    const env = createEnv(entry.env, entry.envOptions);
    const distinct = env.tasks.distinctTasks?.();
    const needed = config.heldOutTasks + config.demoTasks;
    if (distinct !== undefined && distinct < needed) {
      throw new ConfigError(
        "envOptions",
        `${envLabel(env)} has only ${distinct} distinct tasks; the study draws ${config.heldOutTasks} held-out and ${config.demoTasks} demonstration tasks, all distinct: ${needed}`,
        "use an env config with more distinct tasks (hanoi: more disks, each triples the count: --env-opt disks=6 has 728)",
      );
    }
    checkDistinctCount(env, config.tasksPerStep, config.heldOutTasks, "tasksPerStep");
  }
}

/** A train config's field as the study names it: the trainer's and the estimator's fields are the study's own
 * (backend.renderer -> renderer). */
const trainerFieldName = (path: readonly PropertyKey[]): string =>
  path
    .slice(path[0] === "backend" || path[0] === "algo" ? 1 : 0)
    .map(String)
    .join(".") || "config";

/** Refuses what the RL and evaluation stages would refuse later: budgets an env cannot size, a train config the
 * trainer would not take (every RL run's config parsed as `budgetrl train` parses it, fields named as there), and
 * with the Tinker trainer a service that is not given or does not serve its base model. */
async function checkStudyRuns(config: Readonly<StudyConfig>, options: ReproduceOptions): Promise<void> {
  for (const entry of config.envs) {
    checkBudgetsFit(entry.budgets, createEnv(entry.env, entry.envOptions), `envs.${entry.env}.budgets`);
    for (const variant of rlVariants(entry))
      parseTrainConfig(rlTrainConfig(config, options.out, config.seeds[0] ?? 1, entry, variant), trainerFieldName);
  }
  if (config.trainer.kind !== "tinker") return;
  const reach = tinkerReach({ reach: options.reach ?? {}, events: QUIET });
  // Loaded here: the wire format is only for studies that train on Tinker.
  const [{ createTinkerClient }, { serverModels }] = await Promise.all([
    import("../tinker/client.js"),
    import("../tinker/operations.js"),
  ]);
  const served = await serverModels(
    createTinkerClient({ ...reach, ...(options.signal === undefined ? {} : { signal: options.signal }) }),
  );
  const baseModel = config.trainer.baseModel;
  if (served.length > 0 && !served.some((model) => model.name === baseModel))
    throw new ConfigError(
      "baseModel",
      `${reach.baseUrl} does not serve ${baseModel}`,
      `it serves: ${served.map((model) => model.name).join(", ")}`,
    );
}

function finishedStages(out: string): Set<StageName> {
  const path = join(out, "stages.json");
  return new Set(existsSync(path) ? (readJson(path) as StageName[]) : []);
}

function recordFinished(out: string, done: ReadonlySet<StageName>): void {
  writeFileSync(join(out, "stages.json"), `${JSON.stringify(STAGES.filter((stage) => done.has(stage)))}\n`);
}

export async function reproduce(options: ReproduceOptions): Promise<ReproduceResult> {
  // How the servers are reached is read first: a bad client option is refused before any work, naming it.
  const reach = parseStudyReach(options.reach);
  const { config, plan } = await studyOf(options);
  const context: StageContext = {
    config,
    plan,
    out: options.out,
    reach,
    ...(options.viewUrl === undefined ? {} : { viewUrl: options.viewUrl }),
    events: options.events ?? QUIET,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const leftOut = sftLeftOut(config);
  const done = finishedStages(options.out);
  const reportPath = join(options.out, "report.html");
  let report: StudyReport | undefined;
  for (const stage of STAGES) {
    if (stage === "sft" && leftOut !== undefined) {
      options.onStage?.(stage, "omitted", leftOut);
      continue;
    }
    if (done.has(stage) && stage !== "report") {
      options.onStage?.(stage, "skipped");
      continue;
    }
    if (stopped(options.signal)) return { config, finished: false, reportPath };
    options.onStage?.(stage, "start");
    let summary: string;
    try {
      if (stage === "report") {
        report = await reportStage(context);
        summary = `${reportPath}: ${report.models.length} models, ${report.runs.length} runs`;
      } else summary = await runStage(stage, context);
    } catch (error) {
      // Stopped: whatever the stage was doing ends here (a Tinker request cut by the signal fails as a request, not
      // as a StoppedError); a failure with no stop asked for is the stage's own.
      if (stopped(options.signal)) return { config, finished: false, reportPath };
      throw error;
    }
    if (stopped(options.signal)) return { config, finished: false, reportPath };
    done.add(stage);
    recordFinished(options.out, done);
    options.onStage?.(stage, "done", summary);
  }
  return { config, finished: true, reportPath, ...(report === undefined ? {} : { report }) };
}

function runStage(stage: Exclude<StageName, "report">, context: StageContext): Promise<string> | string {
  switch (stage) {
    case "tasks":
      return tasksStage(context);
    case "ranges":
      return rangesStage(context);
    case "sft":
      return sftStage(context);
    case "rl":
      return rlStage(context);
    case "eval":
      return evalStage(context);
  }
}
