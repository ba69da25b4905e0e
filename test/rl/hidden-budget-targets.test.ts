// The budget-blind Bayes targets of hidden-mode demonstrations (src/rl/hidden-budget-targets.ts), checked against
// the thin ice env's exact hidden-budget ceiling (src/envs/thinice/hidden-ceiling.ts), computed another way: there
// by propagating the oracle's state distribution per observation, here by replaying sampled episodes through the
// generic env interface.
import { describe, expect, it } from "vitest";
import { runEpisode } from "../../src/agent/rollout.js";
import { taskDraws } from "../../src/agent/task-draws.js";
import { parseBudgetSpec, resolveBudget, taskBudgetBasis, type BudgetMode } from "../../src/core/budget.js";
import type { Episode } from "../../src/core/episode.js";
import { ConfigError, DataError } from "../../src/core/errors.js";
import { hiddenCeiling } from "../../src/envs/thinice/hidden-ceiling.js";
import { thinice, type ThinIceTask } from "../../src/envs/thinice/index.js";
import { MULTIPLE_LABELS } from "../../src/envs/thinice/tradeoff.js";
import { oraclePolicy } from "../../src/policies/scripted/oracle.js";
import { noisyOraclePolicy } from "../../src/policies/scripted/noisy-oracle.js";
import { bayesMoves, hiddenBudgetTargets } from "../../src/rl/hidden-budget-targets.js";
import { sftTargets } from "../../src/rl/sft-targets.js";
import { storedTask } from "../../src/store/runs.js";
import { heldOutSet } from "../../src/study/plan.js";

const env = thinice();
const budgetsOf = (task: ThinIceTask): number[] =>
  MULTIPLE_LABELS.map(
    (label) => resolveBudget(parseBudgetSpec(label), taskBudgetBasis(env, task, "episode"), "hidden").turns,
  );

async function episodeAt(task: ThinIceTask, label: string, seed: number, epsilon = 0, mode: BudgetMode = "hidden") {
  const budget = resolveBudget(parseBudgetSpec(label), taskBudgetBasis(env, task, "episode"), mode);
  const policy = epsilon === 0 ? oraclePolicy() : noisyOraclePolicy(epsilon);
  return runEpisode(
    env,
    policy,
    { run: "demo", task, taskId: env.tasks.id(task), taskIndex: 0, budget, sample: seed, seed },
    { annotate: true },
  );
}

describe("budget-blind Bayes targets of hidden demonstrations", () => {
  const set = heldOutSet({ heldOutSeed: 1, heldOutTasks: 40 }, { env: "thinice", heldOut: "structure" });
  const draws = taskDraws(env, set.seed, { count: 40, field: "tasks", distinct: "structure" });
  const maps = Array.from({ length: 40 }, (_, index) => draws.make(index) as ThinIceTask);

  it("reach the exact hidden-budget ceiling's step quality on the oracle's states (40 held-out maps, within 1.5 points)", async () => {
    const quality = [0, 0, 0, 0];
    for (const map of maps) {
      const budgets = budgetsOf(map);
      for (const [j, label] of MULTIPLE_LABELS.entries()) {
        let good = 0;
        let turns = 0;
        for (let seed = 0; seed < 12; seed++) {
          const episode = await episodeAt(map, label, seed);
          const bayes = bayesMoves(env, map, episode, budgets, 0.2);
          // With one budget and no noise the Bayes moves are that budget's optimal set.
          const optimal = bayesMoves(env, map, episode, [budgets[j]!], 0);
          bayes.forEach((moves, position) => {
            good += moves.filter((move) => optimal[position]!.includes(move)).length / moves.length;
            turns++;
          });
        }
        quality[j] = quality[j]! + good / turns / maps.length;
      }
    }
    const ceiling = hiddenCeiling(maps, 0.4).bayes;
    quality.forEach((value, j) => expect(Math.abs(value - ceiling[j]!)).toBeLessThan(0.015));
    // and so every budget clears 85%, where imitating each budget's own move does not have to
    expect(Math.min(...quality)).toBeGreaterThan(0.85);
  });

  it("with one budget and no noise, the Bayes moves are the oracle's optimal set at every turn", async () => {
    const map = maps[3]!;
    const episode = await episodeAt(map, "1.5x", 2, 0.5);
    const [turns] = [budgetsOf(map)[1]!];
    const moves = bayesMoves(env, map, episode, [turns], 0);
    episode.turns.forEach((turn, position) =>
      expect(moves[position]!.includes(turn.parsedAction ?? "")).toBe(turn.optimal === true),
    );
  });

  it("refuses a demonstration that does not replay in the env", async () => {
    const episode = await episodeAt(maps[0]!, "2x", 1);
    expect(() => bayesMoves(env, maps[1]!, episode, budgetsOf(maps[1]!), 0.2)).toThrow(DataError);
    expect(() => bayesMoves(env, maps[1]!, episode, budgetsOf(maps[1]!), 0.2)).toThrow(/does not replay/);
  });

  it("imitate bayes: announced demonstrations keep the oracle's annotation, hidden ones the Bayes move; other demonstrators are refused", async () => {
    const map = maps[5]!;
    const run = {
      env,
      policy: { kind: "noisy-oracle", epsilon: 0.2 } as const,
      budgets: MULTIPLE_LABELS.map((label) => parseBudgetSpec(label)),
      scope: "episode" as const,
      tasks: new Map([[0, storedTask(env, map, 0, "episode")]]),
    };
    const targets = sftTargets("bayes", run);
    const announced: Episode = await episodeAt(map, "1.25x", 4, 0.2, "announced");
    expect(targets(announced)).toEqual(announced.turns.map((turn) => turn.optimal === true));
    const hidden: Episode = await episodeAt(map, "1.25x", 4, 0.2);
    expect(targets(hidden)).toEqual(hiddenBudgetTargets(env, map, hidden, budgetsOf(map), 0.2));
    // A demonstration whose budget the run's budgets do not give (other budgets, another env version) is refused.
    const other = sftTargets("bayes", { ...run, budgets: [parseBudgetSpec("2x")] });
    expect(() => other(hidden)).toThrow(
      /played under budget 1.25x in \d+ turns, which the run's budgets \(2x\) do not give/,
    );
    expect(() => sftTargets("bayes", { ...run, policy: { kind: "random" } })).toThrow(ConfigError);
    expect(() => sftTargets("bayes", { ...run, policy: { kind: "random" } })).toThrow(/budget-aware oracle/);
  });
});
