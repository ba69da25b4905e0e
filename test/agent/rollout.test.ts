import { describe, expect, it } from "vitest";
import { runEpisode, withBudgetNote } from "../../src/agent/rollout.js";
import type { Budget } from "../../src/core/budget.js";
import type { Message } from "../../src/core/message.js";
import { policyFromFunction } from "../../src/core/policy.js";
import { sokoban } from "../../src/envs/sokoban/index.js";
import { oraclePolicy } from "../../src/policies/scripted/oracle.js";
import { stepsEnv } from "../helpers/steps-env.js";

const budget = (turns: number, mode: Budget["mode"] = "announced", scope: Budget["scope"] = "episode"): Budget => ({ turns, mode, scope, label: String(turns) });
const spec = <T>(task: T, b: Budget) => ({ run: "test", task, taskId: "t", taskIndex: 0, budget: b, sample: 0, seed: 5 });

describe("runEpisode", () => {
  it("reaches success with the oracle in exactly the optimal number of turns and annotates every turn", async () => {
    const env = sokoban();
    const task = env.generate(3);
    const optimal = env.oracle(env.reset(task, { seed: 0 }).state).remaining;
    const episode = await runEpisode(env, oraclePolicy(), spec(task, budget(100)));
    expect(episode.success).toBe(true);
    expect(episode.stopReason).toBe("success");
    expect(episode.turnsUsed).toBe(optimal);
    expect(episode.successTurn).toBe(optimal);
    expect(episode.turns.every((turn) => turn.optimal === true)).toBe(true);
    expect(episode.turns.map((turn) => turn.remainingBefore)).toEqual(Array.from({ length: optimal }, (_, i) => optimal - i));
    expect(episode.preamble[0]?.role).toBe("system");
  });

  it("truncates at T with stopReason max_turns, separate from termination", async () => {
    const env = sokoban();
    const task = env.generate(3);
    const episode = await runEpisode(env, policyFromFunction("stubborn", () => "Nope"), spec(task, budget(4)));
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
    await runEpisode(env, spy, spec(env.generate(0), budget(3, "announced")));
    expect(seen.map((text) => text.split("\n").pop())).toEqual(["Turn 1 of 3: 3 turns left.", "Turn 2 of 3: 2 turns left.", "Turn 3 of 3: 1 turn left."]);
    seen.length = 0;
    await runEpisode(env, spy, spec(env.generate(0), budget(2, "remaining")));
    expect(seen.map((text) => text.split("\n").pop())).toEqual(["2 turns left.", "1 turn left."]);
    seen.length = 0;
    await runEpisode(env, spy, spec(env.generate(0), budget(2, "hidden")));
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
    const episode = await runEpisode(env, flaky, spec(env.generate(0), budget(10)));
    expect(episode.stopReason).toBe("error");
    expect(episode.error).toBe("server unavailable");
    expect(episode.turnsUsed).toBe(1);
  });
});

describe("withBudgetNote", () => {
  it("appends to the last text message and adds a user message after tool results", () => {
    expect(withBudgetNote([{ role: "user", content: "grid" }], "Turn 1 of 2: 2 turns left.")).toEqual([{ role: "user", content: "grid\nTurn 1 of 2: 2 turns left." }]);
    expect(withBudgetNote([{ role: "tool", content: "42", toolCallId: "a" }], "1 turn left.")).toEqual([
      { role: "tool", content: "42", toolCallId: "a" },
      { role: "user", content: "1 turn left." },
    ]);
    const messages = [{ role: "user" as const, content: "x" }];
    expect(withBudgetNote(messages, null)).toBe(messages);
  });
});
