import { describe, expect, it } from "vitest";
import { runEpisode, withBudgetNote } from "../../src/agent/rollout.js";
import type { Budget } from "../../src/core/budget.js";
import type { Message } from "../../src/core/message.js";
import { policyFromFunction } from "../../src/core/policy.js";
import type { Env } from "../../src/core/env.js";
import { frozenlake, type FrozenLakeState, type FrozenLakeTask } from "../../src/envs/frozenlake/index.js";
import { sokoban } from "../../src/envs/sokoban/index.js";
import { oraclePolicy } from "../../src/policies/scripted/oracle.js";
import { stepsEnv } from "../helpers/steps-env.js";

const budget = (turns: number, mode: Budget["mode"] = "announced", scope: Budget["scope"] = "episode"): Budget => ({
  turns,
  mode,
  scope,
  label: String(turns),
});
const spec = <T>(task: T, b: Budget) => ({
  run: "test",
  task,
  taskId: "t",
  taskIndex: 0,
  budget: b,
  sample: 0,
  seed: 5,
});

describe("runEpisode", () => {
  it("reaches success with the oracle in exactly the optimal number of turns and annotates every turn", async () => {
    const env = sokoban();
    const task = env.tasks.generate(3);
    const optimal = env.oracle!.answer(env.reset(task, { seed: 0 }).state).remaining;
    const episode = await runEpisode(env, oraclePolicy(), spec(task, budget(100)));
    expect(episode.success).toBe(true);
    expect(episode.stopReason).toBe("success");
    expect(episode.turnsUsed).toBe(optimal);
    expect(episode.successTurn).toBe(optimal);
    expect(episode.turns.every((turn) => turn.optimal === true)).toBe(true);
    expect(episode.turns.map((turn) => turn.remainingBefore)).toEqual(
      Array.from({ length: optimal }, (_, i) => optimal - i),
    );
    expect(episode.preamble[0]?.role).toBe("system");
  });

  it("truncates at T with stopReason max_turns, separate from termination", async () => {
    const env = sokoban();
    const task = env.tasks.generate(3);
    const episode = await runEpisode(
      env,
      policyFromFunction("stubborn", () => "Nope"),
      spec(task, budget(4)),
    );
    expect(episode.turnsUsed).toBe(4);
    expect(episode.stopReason).toBe("max_turns");
    expect(episode.stopLimit).toBe("episode");
    expect(episode.success).toBe(false);
    expect(episode.turns.map((turn) => [turn.invalid, turn.terminated, turn.truncated])).toEqual([
      [true, false, false],
      [true, false, false],
      [true, false, false],
      [true, false, true],
    ]);
  });

  it("shows the budget text the mode asks for, before every turn", async () => {
    const seen: string[] = [];
    const spy = policyFromFunction("spy", (conversation: readonly Message[]) => {
      seen.push(conversation[conversation.length - 1]?.content ?? "");
      return "stop";
    });
    const env = stepsEnv();
    await runEpisode(env, spy, spec(env.tasks.generate(0), budget(3, "announced")));
    expect(seen.map((text) => text.split("\n").pop())).toEqual([
      "Turn 1 of 3: 3 turns left.",
      "Turn 2 of 3: 2 turns left.",
      "Turn 3 of 3: 1 turn left.",
    ]);
    seen.length = 0;
    await runEpisode(env, spy, spec(env.tasks.generate(0), budget(2, "remaining")));
    expect(seen.map((text) => text.split("\n").pop())).toEqual(["2 turns left.", "1 turn left."]);
    seen.length = 0;
    await runEpisode(env, spy, spec(env.tasks.generate(0), budget(2, "hidden")));
    expect(seen).toEqual(["segment 0", "invalid: say go"]);
  });

  it("restarts a per-user-turn budget when the segment changes", async () => {
    const env = stepsEnv();
    const task = { id: "x", segments: [3, 3] };
    const seen: string[] = [];
    const go = policyFromFunction("go", (conversation: readonly Message[]) => {
      seen.push((conversation[conversation.length - 1]?.content ?? "").split("\n").pop() ?? "");
      return "go";
    });
    const ok = await runEpisode(env, go, spec(task, budget(3, "announced", "user-turn")));
    expect(ok.success).toBe(true);
    expect(ok.turnsUsed).toBe(6);
    expect(seen[3]).toBe("Step 1 of 3 for this request: 3 steps left.");
    const tight = await runEpisode(env, go, spec(task, budget(2, "hidden", "user-turn")));
    expect(tight.stopReason).toBe("max_turns");
    expect(tight.stopLimit).toBe("user-turn");
    expect(tight.turnsUsed).toBe(2);
  });

  it("ends with stopReason error when the policy throws, keeping the turns so far", async () => {
    let calls = 0;
    const flaky = policyFromFunction("flaky", () => {
      calls++;
      if (calls === 2) throw new Error("server unavailable");
      return "go";
    });
    const env = stepsEnv();
    const episode = await runEpisode(env, flaky, spec(env.tasks.generate(0), budget(10)));
    expect(episode.stopReason).toBe("error");
    expect(episode.error).toBe("server unavailable");
    expect(episode.turnsUsed).toBe(1);
  });
});

describe("runEpisode and the oracle", () => {
  /** A steps env whose oracle records the horizons it is asked for. */
  const spiedSteps = () => {
    const env = stepsEnv();
    const asked: (number | undefined)[] = [];
    return {
      asked,
      env: {
        ...env,
        oracle: {
          answer: (state: Parameters<typeof env.step>[0], turnsLeft?: number) => (
            asked.push(turnsLeft),
            env.oracle!.answer(state, turnsLeft)
          ),
        },
      },
    };
  };

  it("asks the oracle within the turns left, for annotations and for privileged policies (unbounded on request)", async () => {
    const { env, asked } = spiedSteps();
    const policy = policyFromFunction("asker", (_conversation, context) => {
      context.privileged.oracle();
      context.privileged.oracle("unbounded");
      return "stop";
    });
    await runEpisode(env, policy, spec({ id: "x", segments: [5] }, budget(3, "hidden")));
    // Per turn: the annotation, then the policy's two questions.
    expect(asked).toEqual([3, 3, undefined, 2, 2, undefined, 1, 1, undefined]);
  });

  it("counts the turns left in the current user turn under a per-user-turn budget", async () => {
    const { env, asked } = spiedSteps();
    const episode = await runEpisode(
      env,
      policyFromFunction("go", () => "go"),
      spec({ id: "x", segments: [2, 3] }, budget(4, "hidden", "user-turn")),
    );
    expect(episode.success).toBe(true);
    expect(asked).toEqual([4, 3, 4, 3, 2]);
  });

  it("annotates the value before each turn and records frozenlake's progress within the turns left", async () => {
    const slippery = frozenlake({ map: "4x4", slippery: true });
    const horizons: number[] = [];
    const env: Env<FrozenLakeTask, FrozenLakeState> = {
      ...slippery,
      oracle: {
        ...slippery.oracle!,
        progressWithin: (state, turnsLeft) => (
          horizons.push(turnsLeft),
          slippery.oracle!.progressWithin!(state, turnsLeft)
        ),
      },
    };
    const task = env.tasks.generate(0);
    const episode = await runEpisode(env, oraclePolicy(), spec(task, budget(24, "hidden")));
    const start = env.reset(task, { seed: 0 }).state;
    expect(episode.initialProgress).toBe(slippery.oracle!.answer(start, 24).value);
    expect(episode.turns[0]!.valueBefore).toBe(episode.initialProgress);
    expect(horizons).toEqual(Array.from({ length: episode.turnsUsed + 1 }, (_, i) => 24 - i));
    // The value before a turn is the progress recorded after the previous one: both are within the turns left.
    episode.turns.slice(1).forEach((turn, i) => expect(turn.valueBefore).toBe(episode.turns[i]!.progress));
    expect(episode.turns.every((turn) => turn.optimal === true)).toBe(true);
    const last = episode.turns[episode.turns.length - 1]!;
    expect(last.progress).toBe(episode.success ? 1 : 0);
  });
});

describe("withBudgetNote", () => {
  it("appends to the last text message and adds a user message after tool results", () => {
    expect(withBudgetNote([{ role: "user", content: "grid" }], "Turn 1 of 2: 2 turns left.")).toEqual([
      { role: "user", content: "grid\nTurn 1 of 2: 2 turns left." },
    ]);
    expect(withBudgetNote([{ role: "tool", content: "42", toolCallId: "a" }], "1 turn left.")).toEqual([
      { role: "tool", content: "42", toolCallId: "a" },
      { role: "user", content: "1 turn left." },
    ]);
    const messages = [{ role: "user" as const, content: "x" }];
    expect(withBudgetNote(messages, null)).toBe(messages);
  });
});
