// Where each evaluation run of a study folder belongs, from the study's own plan (study.json): its seed (null for the
// ranges, the reference policies every seed shares), env, model and kind (the grid announced or hidden, teacher-forced,
// recovery after a forced error). What `budgetrl view STUDY_DIR` groups its runs list by; nothing is read back from
// the runs' names.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DataError, thrownMessage } from "../core/errors.js";
import { parseStudyConfig } from "./config.js";
import { evalRuns, rangeRuns, studyDb, studyModels, type StudyEvalRun } from "./plan.js";

export interface StudyRunGroup {
  /** The seed whose pipeline made the model; null for the ranges (the oracle and a random policy). */
  readonly seed: number | null;
  readonly env: string;
  readonly model: string;
  /** What the run measures, in words: "announced", "hidden", "teacher-forced announced", "recovery at turn 2". */
  readonly kind: string;
}

/** A study folder's store and where its runs belong. */
export interface StudyFolder {
  readonly db: string;
  readonly groups: ReadonlyMap<string, StudyRunGroup>;
}

function kindOf(run: StudyEvalRun): string {
  if (run.intervention === "none") return run.budgetMode;
  if (run.intervention === "teacher-forced") return `teacher-forced ${run.budgetMode}`;
  const turn = /^recover:(\d+)$/.exec(run.intervention)?.[1];
  return turn === undefined ? run.intervention : `recovery at turn ${turn}`;
}

/** True when `dir` holds a study (its study.json). */
export const isStudyFolder = (dir: string): boolean => existsSync(join(dir, "study.json"));

/** The store of the study in `dir` and the group of every run its plan makes. */
export function studyFolder(dir: string): StudyFolder {
  const path = join(dir, "study.json");
  let config;
  try {
    config = parseStudyConfig(JSON.parse(readFileSync(path, "utf8")) as unknown);
  } catch (error) {
    throw new DataError(`cannot read the study in ${dir}: ${path}: ${thrownMessage(error)}`);
  }
  const groups = new Map<string, StudyRunGroup>();
  for (const model of studyModels(config, dir))
    for (const run of evalRuns(config, [model]))
      groups.set(run.run, { seed: model.seed, env: model.env, model: model.name, kind: kindOf(run) });
  for (const run of rangeRuns(config))
    groups.set(run.run, { seed: null, env: run.model.env, model: run.model.name, kind: kindOf(run) });
  return { db: studyDb(dir), groups };
}
