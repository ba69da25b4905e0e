// The oracle policy's success rate within T turns on slippery frozenlake, played through the rollout engine,
// against the exact finite-horizon optimum (test/helpers/exact-frozenlake.ts): about 30,000 seeded episodes, each
// rate within three standard errors. Left to the full suite (vitest.unit.config.ts): oracle.test.ts checks the
// oracle's choices against the same exact solution, cell by cell and horizon by horizon, in the unit lane.
import { describe, expect, it } from "vitest";
import { runEpisode } from "../../../src/agent/rollout.js";
import type { Budget } from "../../../src/core/budget.js";
import { frozenlake } from "../../../src/envs/frozenlake/index.js";
import { NAMED_MAPS } from "../../../src/envs/frozenlake/maps.js";
import { oraclePolicy } from "../../../src/policies/scripted/oracle.js";
import { exactHorizon } from "../../helpers/exact-frozenlake.js";

const hidden = (turns: number): Budget => ({ turns, mode: "hidden", scope: "episode", label: String(turns) });

/** Success rate of the oracle policy within T turns (hidden budget) over n seeded episodes of the rollout engine. */
async function successWithin(map: "4x4" | "8x8", turns: number, n: number): Promise<number> {
  const env = frozenlake({ map, slippery: true });
  const task = env.tasks.generate(0);
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
});
