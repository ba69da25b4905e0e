// Interventions in the rollout engine: teacher-forced rollouts play the expert while judging the policy, and a
// perturbation at turn J forces one non-optimal action on the same states as the unperturbed run (same seeds).
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
    const task = env.generate(1);
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
    expect(first.policyOptimal).toBe(env.oracle(state, 60).optimal.includes(first.policyParsed ?? ""));
  });

  it("judge a perfect policy as always optimal, and an unreadable reply as not optimal", async () => {
    const env = sokoban();
    const task = env.generate(3);
    const perfect = await runEpisode(env, oraclePolicy(), spec(task), { intervention: { kind: "teacher-forced" } });
    expect(perfect.turns.every((turn) => turn.forced?.policyOptimal === true)).toBe(true);
    const mute = await runEpisode(env, policyFromFunction("mute", () => "I would rather not"), spec(task), { intervention: { kind: "teacher-forced" } });
    expect(mute.success).toBe(true);
    expect(mute.turns.every((turn) => turn.forced?.policyParsed === null && turn.forced.policyOptimal === false)).toBe(true);
    // The policy sees the expert's history: the conversation's assistant turns are the played actions.
    expect(mute.turns.map((turn) => turn.action.content)).toEqual(perfect.turns.map((turn) => turn.action.content));
  });
});

describe("perturbation at turn J", () => {
  it("shares the states of the unperturbed run before J, forces one non-optimal action at J, then hands control back", async () => {
    const env = sokoban();
    const task = env.generate(3);
    const policy = noisyOraclePolicy(0.1);
    const control = await runEpisode(env, policy, spec(task, 11));
    const perturbed = await runEpisode(env, policy, spec(task, 11), { intervention: { kind: "perturb", turn: 2 } });
    expect(perturbed.turns[0]).toEqual(control.turns[0]);
    const forced = perturbed.turns[1]!;
    expect(forced.forced?.by).toBe("perturbation");
    expect(forced.optimal).toBe(false);
    expect(forced.observation).toEqual(control.turns[1]!.observation);
    // The policy was asked and its own reply judged: here the same reply the control run played.
    expect(forced.forced?.policyAction).toEqual(control.turns[1]!.action);
    expect(perturbed.turns.slice(2).every((turn) => turn.forced === undefined)).toBe(true);
  });

  it("is stored with the run and paired by seed with an ordinary run", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "budgetrl-interventions-")), "runs.db");
    const common = { env: "sokoban", policy: "noisy-oracle:0.2", tasks: 4, samples: 3, budgets: ["100%"], seed: 3, db, bootstrap: 0 } as const;
    await evaluate({ ...common, run: "control" });
    const perturbed = await evaluate({ ...common, run: "perturbed", intervention: "perturb:1", keepEpisodes: true });
    expect(perturbed.config.intervention).toEqual({ kind: "perturb", turn: 1 });
    const first = perturbed.episodes.map((episode) => episode.turns[0]?.forced?.by);
    expect(first.every((by) => by === "perturbation")).toBe(true);
    const store = await openStore(db, { readonly: true });
    const stored = await collect(readEpisodes(store, "perturbed", "sokoban", new Map()));
    await store.close();
    expect(stored.map((episode) => episode.turns[0]?.forced)).toEqual(perturbed.episodes.map((episode) => episode.turns[0]?.forced));
    await expect(evaluate({ ...common, run: "bad", intervention: "perturb:0" })).rejects.toThrow(/intervention: "perturb:0" is not an intervention/);
  });

  it("reads intervention texts", () => {
    expect(readIntervention("teacher-forced")).toEqual({ kind: "teacher-forced" });
    expect(readIntervention(" perturb:12 ")).toEqual({ kind: "perturb", turn: 12 });
    expect(readIntervention("perturb:x")).toHaveProperty("problem");
  });
});
