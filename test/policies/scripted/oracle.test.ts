// The oracle policy on slippery frozenlake: at every (cell, turns left) of the 4x4 map it chooses within the exact
// optimal set (test/helpers/exact-frozenlake.ts), it plays such moves through the rollout engine, and its specs. Its success rates against the exact optimum, over
// many episodes of the rollout engine, are in oracle-rates.test.ts (the full suite).
import { describe, expect, it } from "vitest";
import { runEpisode } from "../../../src/agent/rollout.js";
import { ConfigError } from "../../../src/core/errors.js";
import type { OracleHorizon, PolicyContext } from "../../../src/core/policy.js";
import { createRng } from "../../../src/core/rng.js";
import { frozenlake, type FrozenLakeState } from "../../../src/envs/frozenlake/index.js";
import { NAMED_MAPS } from "../../../src/envs/frozenlake/maps.js";
import { oracleAction, oraclePolicy } from "../../../src/policies/scripted/oracle.js";
import { createPolicy } from "../../../src/policies/spec.js";
import { readPolicySpec } from "../../../src/core/policy-spec.js";
import { DIRECTION_NAMES, exactHorizon } from "../../helpers/exact-frozenlake.js";

describe("oracle policy on slippery frozenlake", () => {
  it("chooses within the exact optimal set at every (cell, turns left) of the 4x4 map; unbounded plays the unlimited-horizon set", () => {
    const env = frozenlake({ map: "4x4", slippery: true });
    const start = env.reset(env.tasks.generate(0), { seed: 0 }).state;
    const exact = exactHorizon(NAMED_MAPS["4x4"]!, true, 40);
    const rng = createRng(5);
    const play = (cell: number, turnsLeft: number, horizon: OracleHorizon): string => {
      const state: FrozenLakeState = { ...start, cell };
      const privileged = {
        oracle: (asked?: OracleHorizon) => env.oracle!.answer(state, asked === "unbounded" ? undefined : turnsLeft),
        validActions: () => env.actions.valid(state),
        toMessage: (action: string) => ({ role: "assistant" as const, content: action }),
      };
      const context: PolicyContext = { seed: 0, sample: 0, turn: 1, rng, tools: [], taskId: "t", privileged };
      return oracleAction(context, horizon);
    };
    for (let cell = 0; cell < 16; cell++) {
      if (env.actions.valid({ ...start, cell }).length === 0) continue;
      for (let t = 1; t <= 40; t++) {
        const mask = exact.mask(cell, t);
        if (mask < 0) continue;
        const allowed = DIRECTION_NAMES.filter((_, direction) => (mask & (1 << direction)) !== 0);
        const chosen = new Set(Array.from({ length: 40 }, () => play(cell, t, "turns-left")));
        expect([cell, t, [...chosen].sort()]).toEqual([cell, t, [...allowed].sort()]);
      }
      const unlimited = env.oracle!.answer({ ...start, cell }).optimal;
      for (let draw = 0; draw < 20; draw++) expect(unlimited).toContain(play(cell, 3, "unbounded"));
    }
  });

  it("plays a budget-optimal move at every turn through the rollout engine, the budget hidden from the agent", async () => {
    const env = frozenlake({ map: "4x4", slippery: true });
    const task = env.tasks.generate(0);
    const budget = { turns: 10, mode: "hidden", scope: "episode", label: "10" } as const;
    const turns = [];
    for (let sample = 0; sample < 100; sample++) {
      const spec = { run: "t", task, taskId: "t", taskIndex: 0, budget, sample, seed: sample };
      turns.push(...(await runEpisode(env, oraclePolicy(), spec)).turns);
    }
    expect(turns.length).toBeGreaterThan(500);
    // The annotation compares each move with the env's oracle within the turns left, checked exact above.
    expect(turns.filter((turn) => turn.optimal !== true)).toEqual([]);
  });

  it('is "oracle" (budget-aware) or "oracle:unbounded" as a spec', async () => {
    expect((await createPolicy(readPolicySpec("oracle"))).name).toBe("oracle");
    expect((await createPolicy(readPolicySpec("oracle:unbounded"))).name).toBe("oracle:unbounded");
    expect(() => readPolicySpec("oracle:sometimes")).toThrow(ConfigError);
    expect(() => readPolicySpec("oracle:sometimes")).toThrow(/unknown oracle variant "sometimes"/);
  });
});
