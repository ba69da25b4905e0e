import { describe, expect, it } from "vitest";
import { runEpisode } from "../../src/agent/rollout.js";
import type { Budget } from "../../src/core/budget.js";
import type { Env, RemoteEnv } from "../../src/core/env.js";
import { hanoi, type HanoiState, type HanoiTask } from "../../src/envs/hanoi/index.js";
import { oraclePolicy } from "../../src/policies/scripted/oracle.js";

const budget: Budget = { turns: 20, mode: "announced", scope: "episode", label: "20" };

/** A local env served as a remote one (answers later), failing where told; it counts the sessions it released. */
function asRemote(
  local: Env<HanoiTask, HanoiState>,
  fault: { readonly reset?: boolean; readonly atStep?: number } = {},
): RemoteEnv<HanoiTask, HanoiState> & { readonly released: () => number } {
  let steps = 0;
  let released = 0;
  return {
    remote: true,
    spec: local.spec,
    tasks: local.tasks,
    actions: local.actions,
    ...(local.oracle === undefined ? {} : { oracle: local.oracle }),
    open: async () => {},
    close: async () => {},
    reset: async (task, options) => {
      if (fault.reset === true) throw new Error("connection refused");
      return local.reset(task, options);
    },
    step: async (state, action) => {
      steps++;
      if (steps === fault.atStep) throw new Error("socket closed");
      return local.step(state, action);
    },
    release: async () => {
      released++;
    },
    released: () => released,
  };
}

const spec = (task: HanoiTask) => ({ run: "r", task, taskId: "t", taskIndex: 0, budget, sample: 0, seed: 3 });

describe("remote envs in the rollout engine", () => {
  it("plays a remote env on the same path: the same episode as in process, its session released once", async () => {
    const local = hanoi({ disks: 3 });
    const task = local.tasks.generate(1);
    const remote = asRemote(hanoi({ disks: 3 }));
    const inProcess = await runEpisode(local, oraclePolicy(), spec(task));
    const played = await runEpisode(remote, oraclePolicy(), spec(task));
    expect(played).toEqual(inProcess);
    expect(played.success).toBe(true);
    expect(remote.released()).toBe(1);
  });

  it("ends the episode as an error when the server fails mid-episode, keeping the turns before", async () => {
    const remote = asRemote(hanoi({ disks: 3 }), { atStep: 3 });
    const episode = await runEpisode(remote, oraclePolicy(), spec(remote.tasks.generate(1)));
    expect(episode.stopReason).toBe("error");
    expect(episode.error).toBe("env: socket closed");
    expect(episode.turns).toHaveLength(2);
    expect(remote.released()).toBe(1);
  });

  it("gives an error episode with no turn when the reset fails", async () => {
    const remote = asRemote(hanoi({ disks: 3 }), { reset: true });
    const episode = await runEpisode(remote, oraclePolicy(), spec(remote.tasks.generate(1)));
    expect(episode).toMatchObject({ stopReason: "error", turnsUsed: 0, error: "env: connection refused" });
    expect(remote.released()).toBe(0);
  });

  it("tells onTurn of every turn with the progress before it", async () => {
    const local = hanoi({ disks: 3 });
    const seen: [number, number][] = [];
    const episode = await runEpisode(local, oraclePolicy(), spec(local.tasks.generate(1)), {
      onTurn: (turn, step) => seen.push([step.progressBefore, turn.progress]),
    });
    expect(seen).toHaveLength(episode.turns.length);
    expect(seen[0]![0]).toBe(episode.initialProgress);
    for (let i = 1; i < seen.length; i++) expect(seen[i]![0]).toBe(seen[i - 1]![1]);
  });
});
