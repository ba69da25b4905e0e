// The rollout engine's calls of an env's reset and step: a local env is called as it is (its errors are bugs and
// propagate), a remote env (core/env.ts RemoteEnv) is awaited and a fault of its server is wrapped as a
// RemoteEnvFault, which ends the episode as an error (resumed runs play it again). A remote reset that fails gives an
// error episode with no turn.
import type { Env, RemoteEnv, ResetResult, StepResult } from "../core/env.js";
import { isRemoteEnv } from "../core/env.js";
import type { Episode } from "../core/episode.js";
import { StoppedError } from "../core/errors.js";
import type { Message } from "../core/message.js";
import type { Budget } from "../core/budget.js";

/** An env the rollout engine plays: in this process, or remote (its reset and step awaited). */
export type RolloutEnv<TTask, TState> = Env<TTask, TState> | RemoteEnv<TTask, TState>;

/** A fault of a remote env's server, carried out of a reset or step to end the episode as an error. */
export class RemoteEnvFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RemoteEnvFault";
  }
}

/** Reset or step a remote env, its server's faults wrapped (a local env is called as it is: its errors are bugs). */
async function remoteCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (caught) {
    if (caught instanceof StoppedError) throw caught;
    throw new RemoteEnvFault(caught instanceof Error ? caught.message : String(caught));
  }
}

export function resetEnv<TTask, TState>(
  env: RolloutEnv<TTask, TState>,
  task: TTask,
  seed: number,
): ResetResult<TState> | Promise<ResetResult<TState>> {
  return isRemoteEnv(env) ? remoteCall(() => env.reset(task, { seed })) : env.reset(task, { seed });
}

export function stepEnv<TTask, TState>(
  env: RolloutEnv<TTask, TState>,
  state: TState,
  message: Message,
): StepResult<TState> | Promise<StepResult<TState>> {
  return isRemoteEnv(env) ? remoteCall(() => env.step(state, message)) : env.step(state, message);
}

/** The episode of a remote env whose reset failed: an error, with no turn. */
export function resetFailed(
  env: string,
  spec: Pick<Episode, "run" | "taskId" | "taskIndex" | "sample" | "seed"> & { readonly budget: Budget },
  error: string,
): Episode {
  return {
    run: spec.run,
    env,
    taskId: spec.taskId,
    taskIndex: spec.taskIndex,
    budget: spec.budget,
    sample: spec.sample,
    seed: spec.seed,
    preamble: [],
    turns: [],
    success: false,
    stopReason: "error",
    stopLimit: null,
    turnsUsed: 0,
    successTurn: null,
    return: 0,
    initialProgress: 0,
    error: `env: ${error}`,
  };
}
