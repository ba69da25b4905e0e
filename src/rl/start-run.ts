// Starting a training run in its folder (--out), new or resumed, with everything that can be refused refused
// before the folder is touched:
//   new     the config (and its budgets against the env), the env, more distinct tasks than the env has, a missing
//           or corrupt --init, an unreachable tinker server; then the folder is made and the config stored
//           (run-folder.ts), and what was made is reported so that a run failing before its first step can undo it
//   resume  the stored config (never the one given again; an older flat one decoded by readStoredTrainConfig), the env, the newest complete checkpoint and the
//           backend loaded from it
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HeldOutTasks } from "../agent/task-draws.js";
import { checkBudgetsFit } from "../core/budget.js";
import { trainResumeCommand } from "../core/commands.js";
import type { PlayableEnv } from "../core/env.js";
import { BudgetrlError, ConfigError, thrownMessage } from "../core/errors.js";
import { folderOutputProblem } from "../core/output-path.js";
import { openPlayableEnv } from "../envs/registry.js";
import type { OpenedBackend } from "./backend.js";
import { checkedHeldOut } from "./held-out.js";
import { openBackend, type BackendOptions } from "./open-backend.js";
import { configPath, createRunFolder, latestCheckpoint, type CreatedByRun } from "./run-folder.js";
import { parseTrainConfig, readStoredTrainConfig, type TrainConfig } from "./train-config.js";

export interface RunStartOptions extends BackendOptions {
  /** The config of a new run (ignored on resume: the stored one is read). */
  readonly config: unknown;
  readonly out: string;
  readonly resume?: boolean;
}

export interface StartedRun {
  readonly config: Readonly<TrainConfig>;
  readonly env: PlayableEnv;
  readonly backend: OpenedBackend;
  /** Steps done before (the newest checkpoint's step on resume, else 0). */
  readonly startStep: number;
  /** The held-out tasks training never draws. */
  readonly heldOut: HeldOutTasks;
  /** What this call created for a new run (undone if it fails before its first step); undefined on resume. */
  readonly created?: CreatedByRun;
}

export async function startRun(options: RunStartOptions): Promise<StartedRun> {
  const outProblem = folderOutputProblem(options.out);
  if (outProblem !== undefined) throw new ConfigError("out", outProblem);
  return options.resume === true ? resumeRun(options) : newRun(options);
}

async function resumeRun(options: RunStartOptions): Promise<StartedRun> {
  const path = configPath(options.out);
  if (!existsSync(path))
    throw new ConfigError(
      "out",
      `nothing to resume in ${options.out} (no config.json)`,
      "start the run without --resume",
    );
  const config = readStoredTrainConfig(JSON.parse(await readFile(path, "utf8")));
  const env = await openPlayableEnv(config.env, config.envOptions);
  const heldOut = checkedHeldOut(env, config);
  const latest = await latestCheckpoint(options.out);
  return {
    config,
    env,
    heldOut,
    backend: await openBackend(config, options, latest?.[1]),
    startStep: latest?.[0] ?? 0,
  };
}

async function newRun(options: RunStartOptions): Promise<StartedRun> {
  const config = parseTrainConfig(options.config);
  if (existsSync(configPath(options.out)))
    throw new ConfigError(
      "out",
      `${options.out} already holds a training run`,
      `continue it with: ${trainResumeCommand(options.out)}, or pick another --out`,
    );
  const env = await openPlayableEnv(config.env, config.envOptions);
  checkBudgetsFit(
    config.budget.choices.map((choice) => choice.spec),
    env,
    "budget",
  );
  checkBudgetsFit(config.evalBudgets, env, "eval-budget");
  const init = config.backend.kind === "tiny" ? config.backend.init : undefined;
  if (init !== undefined && !existsSync(join(init, "budgetrl.json")))
    throw new ConfigError("init", `${init} is not a checkpoint (no budgetrl.json)`);
  const heldOut = checkedHeldOut(env, config);
  // A corrupt --init and an unreachable tinker server are refused here too, before --out is touched.
  const backend = await openBackend(config, options).catch((error: unknown) => {
    throw config.backend.kind === "tiny" ? initProblem(init, error) : error;
  });
  const created = await createRunFolder(options.out, config).catch((error: unknown) => {
    backend.backend.dispose();
    throw error;
  });
  return { config, env, heldOut, backend, startStep: 0, created };
}

/** A failure to load the initial model, as a refusal naming --init. */
function initProblem(init: string | undefined, error: unknown): BudgetrlError {
  return error instanceof BudgetrlError
    ? error
    : new ConfigError("init", `cannot load ${init ?? "the initial model"}: ${thrownMessage(error)}`);
}
