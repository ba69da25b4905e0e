// The folder of a training run (--out) and its lifecycle:
//   config.json                 the run's config, stored form, written once (through a .tmp file and a rename)
//   train.db                    the step log and the held-out evaluation runs
//   checkpoints/step-NNNNNN/    the weights after N steps; complete once its manifest, budgetrl.json, is written
// A new run that fails before its first step removes what it made (the folder, or its files in a folder that
// existed), so that the same command can simply be run again.
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { encodeTrainConfig, type TrainConfig } from "./train-config.js";

const CHECKPOINTS = "checkpoints";

/** What a new run made of its folder: all of it, or its files in a folder that was there. */
export type CreatedByRun = "folder" | "files";

export function configPath(out: string): string {
  return join(out, "config.json");
}

export function trainDbPath(out: string): string {
  return join(out, "train.db");
}

export function checkpointDir(out: string, step: number): string {
  return join(out, CHECKPOINTS, `step-${String(step).padStart(6, "0")}`);
}

/** The newest complete checkpoint (its manifest is written last), as [step, dir]. */
export async function latestCheckpoint(out: string): Promise<[number, string] | undefined> {
  const root = join(out, CHECKPOINTS);
  if (!existsSync(root)) return undefined;
  const steps = (await readdir(root))
    .map((name) => /^step-(\d+)$/.exec(name))
    .filter((match) => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => b - a);
  for (const step of steps)
    if (existsSync(join(checkpointDir(out, step), "budgetrl.json"))) return [step, checkpointDir(out, step)];
  return undefined;
}

/** Make the folder of a new run and store its config; says what it made (to undo on failure). */
export async function createRunFolder(out: string, config: Readonly<TrainConfig>): Promise<CreatedByRun> {
  const created = existsSync(out) ? "files" : "folder";
  const path = configPath(out);
  try {
    await mkdir(out, { recursive: true });
    await writeFile(`${path}.tmp`, `${JSON.stringify(encodeTrainConfig(config), null, 2)}\n`);
    await rename(`${path}.tmp`, path);
  } catch (error) {
    await removeNewRun(out, created);
    throw error;
  }
  return created;
}

/** Remove what a new run made before it failed, so that the same command can be run again. */
export async function removeNewRun(out: string, created: CreatedByRun): Promise<void> {
  if (created === "folder") {
    await rm(out, { recursive: true, force: true });
    return;
  }
  for (const name of ["config.json", "config.json.tmp", "train.db", "train.db-wal", "train.db-shm", CHECKPOINTS])
    await rm(join(out, name), { recursive: true, force: true });
}
