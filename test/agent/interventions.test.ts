// Interventions in the rollout engine: teacher-forced rollouts play the expert while judging the policy, and
// recover:J plays the expert up to J, forces one non-optimal action at J and hands over (the same states for every
// policy with the same seeds).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readIntervention } from "../../src/agent/interventions.js";
import { runEpisode } from "../../src/agent/rollout.js";
import type { Budget } from "../../src/core/budget.js";
import { policyFromFunction } from "../../src/core/policy.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { readEpisodes } from "../../src/store/episodes.js";
import { openStore } from "../../src/store/open.js";
import { collect } from "../helpers/collect.js";
import { sokoban } from "../../src/envs/sokoban/index.js";
import { hanoi } from "../../src/envs/hanoi/index.js";
import { oraclePolicy } from "../../src/policies/scripted/oracle.js";
import { noisyOraclePolicy } from "../../src/policies/scripted/noisy-oracle.js";
import { randomPolicy } from "../../src/policies/scripted/random.js";

const budget: Budget = { turns: 60, mode: "announced", scope: "episode", label: "60" };
const spec = <T>(task: T, seed = 5) => ({ run: "test", task, taskId: "t", taskIndex: 0, budget, sample: 0, seed });

describe("teacher-forced rollouts", () => {
  it("play the expert's optimal actions while judging each policy reply against the optimal set of that state", async () => {
    const env = hanoi({ disks: 3 });
    const task = env.tasks.generate(1);
    const episode = await runEpisode(env, randomPolicy(), spec(task), { intervention: { kind: "teacher-forced" } });
    // The expert plays: an optimal episode of 2^3 - 1 moves, every played action optimal.
    expect(episode.success).toBe(true);
    expect(episode.turnsUsed).toBe(7);
    expect(episode.turns.every((turn) => turn.optimal === true && turn.forced?.by === "expert")).toBe(true);
    // The random policy's replies are judged: some right, some wrong, and each judgement matches the oracle.
    const judgements = episode.turns.map((turn) => turn.forced?.policyOptimal);
    expect(judgements).toContain(true);
    expect(judgements).toContain(false);
    const state = env.reset(task, { seed: 5 }).state;
    const first = episode.turns[0]!.forced!;
    expect(first.policyOptimal).toBe(env.oracle!.answer(state, 60).optimal.includes(first.policyParsed ?? ""));
  });

  it("judge a perfect policy as always optimal, and an unreadable reply as not optimal", async () => {
    const env = sokoban();
    const task = env.tasks.generate(3);
    const perfect = await runEpisode(env, oraclePolicy(), spec(task), { intervention: { kind: "teacher-forced" } });
    expect(perfect.turns.every((turn) => turn.forced?.policyOptimal === true)).toBe(true);
    const mute = await runEpisode(
      env,
      policyFromFunction("mute", () => "I would rather not"),
      spec(task),
      { intervention: { kind: "teacher-forced" } },
    );
    expect(mute.success).toBe(true);
    expect(mute.turns.every((turn) => turn.forced?.policyParsed === null && turn.forced.policyOptimal === false)).toBe(
      true,
    );
    // The policy sees the expert's history: the conversation's assistant turns are the played actions.
    expect(mute.turns.map((turn) => turn.action.content)).toEqual(perfect.turns.map((turn) => turn.action.content));
  });
});

describe("recovery at turn J", () => {
  it("plays the expert before J, forces one non-optimal action at J, then hands control to the policy", async () => {
    const env = sokoban();
    const task = env.tasks.generate(3);
    const expert = await runEpisode(env, randomPolicy(), spec(task, 11), { intervention: { kind: "teacher-forced" } });
    const recovered = await runEpisode(env, noisyOraclePolicy(0.1), spec(task, 11), {
      intervention: { kind: "recover", turn: 3 },
    });
    // Turns 1-2: the expert's moves (the same as a teacher-forced run of any policy with the same seed).
    expect(recovered.turns.slice(0, 2).map((turn) => [turn.action.content, turn.forced?.by])).toEqual(
      expert.turns.slice(0, 2).map((turn) => [turn.action.content, "expert"]),
    );
    const forced = recovered.turns[2]!;
    expect(forced.forced?.by).toBe("perturbation");
    expect(forced.optimal).toBe(false);
    expect(forced.observation).toEqual(expert.turns[2]!.observation);
    expect(recovered.turns.slice(3).every((turn) => turn.forced === undefined)).toBe(true);
  });

  it("meets the same perturbed states whatever the policy, so models compare on them", async () => {
    const env = hanoi({ disks: 4 });
    const task = env.tasks.generate(0);
    const runs = await Promise.all(
      [randomPolicy(), oraclePolicy(), noisyOraclePolicy(0.5)].map((policy) =>
        runEpisode(env, policy, spec(task, 21), { intervention: { kind: "recover", turn: 4 } }),
      ),
    );
    const upToError = runs.map((episode) =>
      episode.turns.slice(0, 4).map((turn) => [turn.observation, turn.action.content]),
    );
    expect(upToError[1]).toEqual(upToError[0]);
    expect(upToError[2]).toEqual(upToError[0]);
    // After it, the policies differ: the oracle recovers.
    expect(runs[1]!.success).toBe(true);
  });

  it("is stored with the run, and refuses the retired perturb:J with a hint", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "budgetrl-interventions-")), "runs.db");
    const common = {
      env: "sokoban",
      policy: "noisy-oracle:0.2",
      tasks: 4,
      samples: 3,
      budgets: ["100%"],
      seed: 3,
      db,
      bootstrap: 0,
    } as const;
    const recovered = await evaluate({ ...common, run: "recovered", intervention: "recover:1", keepEpisodes: true });
    expect(recovered.config.intervention).toEqual({ kind: "recover", turn: 1 });
    expect(recovered.episodes.every((episode) => episode.turns[0]?.forced?.by === "perturbation")).toBe(true);
    const store = await openStore(db, { readonly: true });
    const stored = await collect(readEpisodes(store, "recovered", "sokoban", new Map()));
    await store.close();
    expect(stored.map((episode) => episode.turns[0]?.forced)).toEqual(
      recovered.episodes.map((episode) => episode.turns[0]?.forced),
    );
    await expect(evaluate({ ...common, run: "bad", intervention: "recover:0" })).rejects.toThrow(
      /intervention: "recover:0" is not an intervention/,
    );
    await expect(evaluate({ ...common, run: "old", intervention: "perturb:2" })).rejects.toThrow(
      /"perturb:2" was retired[\s\S]*use recover:J/,
    );
  });

  it("reads intervention texts", () => {
    expect(readIntervention("teacher-forced")).toEqual({ kind: "teacher-forced" });
    expect(readIntervention(" recover:12 ")).toEqual({ kind: "recover", turn: 12 });
    expect(readIntervention("recover:x")).toHaveProperty("problem");
  });
});
