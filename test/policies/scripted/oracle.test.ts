import { describe, expect, it } from "vitest";
import { runEpisode } from "../../../src/agent/rollout.js";
import type { Budget } from "../../../src/core/budget.js";
import { ConfigError } from "../../../src/core/errors.js";
import type { OracleHorizon, PolicyContext } from "../../../src/core/policy.js";
import { createRng } from "../../../src/core/rng.js";
import { frozenlake, type FrozenLakeState } from "../../../src/envs/frozenlake/index.js";
import { NAMED_MAPS } from "../../../src/envs/frozenlake/maps.js";
import { oracleAction, oraclePolicy } from "../../../src/policies/scripted/oracle.js";
import { createPolicy } from "../../../src/policies/spec.js";
import { DIRECTION_NAMES, exactHorizon } from "../../helpers/exact-frozenlake.js";

const hidden = (turns: number): Budget => ({ turns, mode: "hidden", scope: "episode", label: String(turns) });

/** Success rate of the oracle policy within T turns (hidden budget) over n seeded episodes of the rollout engine. */
async function successWithin(map: "4x4" | "8x8", turns: number, n: number): Promise<number> {
  const env = frozenlake({ map, slippery: true });
  const task = env.generate(0);
  const policy = oraclePolicy();
  let successes = 0;
  for (let sample = 0; sample < n; sample++) {
    const spec = {
      run: "t",
      task,
      taskId: "t",
      taskIndex: 0,
      budget: hidden(turns),
      sample,
      seed: 1_000_000 * turns + sample,
    };
    if ((await runEpisode(env, policy, spec, { annotate: false })).success) successes++;
  }
  return successes / n;
}

describe("oracle policy on slippery frozenlake", () => {
  // Enough samples for a standard error under 0.004 at the exact optimum p: n >= p (1 - p) / 0.0039^2.
  for (const [map, budgets] of [
    ["4x4", [6, 10, 24, 100]],
    ["8x8", [50, 200]],
  ] as const) {
    it(`succeeds within T as often as the exact finite-horizon optimum, on ${map} at T = ${budgets.join(", ")}`, async () => {
      const exact = exactHorizon(NAMED_MAPS[map]!, true, Math.max(...budgets));
      for (const turns of budgets) {
        const optimum = exact.value(0, turns);
        const n = Math.max(2000, Math.ceil((optimum * (1 - optimum)) / 0.0039 ** 2));
        const standardError = Math.sqrt((optimum * (1 - optimum)) / n);
        expect(standardError).toBeLessThan(0.004);
        const rate = await successWithin(map, turns, n);
        expect({ turns, gap: Math.abs(rate - optimum) < 3 * standardError }).toEqual({ turns, gap: true });
      }
    }, 60_000);
  }

  it("chooses within the exact optimal set at every (cell, turns left) of the 4x4 map; unbounded plays the unlimited-horizon set", () => {
    const env = frozenlake({ map: "4x4", slippery: true });
    const start = env.reset(env.generate(0), { seed: 0 }).state;
    const exact = exactHorizon(NAMED_MAPS["4x4"]!, true, 40);
    const rng = createRng(5);
    const play = (cell: number, turnsLeft: number, horizon: OracleHorizon): string => {
      const state: FrozenLakeState = { ...start, cell };
      const privileged = {
        oracle: (asked?: OracleHorizon) => env.oracle(state, asked === "unbounded" ? undefined : turnsLeft),
        validActions: () => env.validActions(state),
        toMessage: (action: string) => ({ role: "assistant" as const, content: action }),
      };
      const context: PolicyContext = { seed: 0, sample: 0, turn: 1, rng, tools: [], taskId: "t", privileged };
      return oracleAction(context, horizon);
    };
    for (let cell = 0; cell < 16; cell++) {
      if (env.validActions({ ...start, cell }).length === 0) continue;
      for (let t = 1; t <= 40; t++) {
        const mask = exact.mask(cell, t);
        if (mask < 0) continue;
        const allowed = DIRECTION_NAMES.filter((_, direction) => (mask & (1 << direction)) !== 0);
        const chosen = new Set(Array.from({ length: 40 }, () => play(cell, t, "turns-left")));
        expect([cell, t, [...chosen].sort()]).toEqual([cell, t, [...allowed].sort()]);
      }
      const unlimited = env.oracle({ ...start, cell }).optimal;
      for (let draw = 0; draw < 20; draw++) expect(unlimited).toContain(play(cell, 3, "unbounded"));
    }
  });

  it('is "oracle" (budget-aware) or "oracle:unbounded" as a spec', async () => {
    expect((await createPolicy("oracle")).name).toBe("oracle");
    expect((await createPolicy("oracle:unbounded")).name).toBe("oracle:unbounded");
    await expect(createPolicy("oracle:sometimes")).rejects.toThrow(ConfigError);
    await expect(createPolicy("oracle:sometimes")).rejects.toThrow(/unknown oracle variant "sometimes"/);
  });
});
