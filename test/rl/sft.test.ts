// SFT targets: with imitate "optimal", only the replies the oracle annotated optimal are responses; the other
// replies stay in the sequence (same tokens) as context.
import { describe, expect, it } from "vitest";
import { resolveBudget, taskBudgetBasis } from "../../src/core/budget.js";
import { runEpisode } from "../../src/agent/rollout.js";
import { createEnv } from "../../src/envs/registry.js";
import { createModel } from "../../src/nn/model.js";
import { noisyOraclePolicy } from "../../src/policies/scripted/noisy-oracle.js";
import { parseBudgetSpec } from "../../src/core/budget.js";
import { demonstrationSequences } from "../../src/rl/sft.js";
import { everyReply, optimalReplies } from "../../src/rl/sft-targets.js";
import { tinyBackend } from "../../src/rl/backends/tiny/backend.js";

describe("demonstrationSequences", () => {
  it("keeps every reply as context but trains only on the optimal ones with imitate optimal", async () => {
    const env = createEnv("hanoi", { disks: 3, randomStart: true });
    const episodes = [];
    for (let seed = 0; seed < 6; seed++) {
      const task = env.tasks.generate(seed);
      const budget = resolveBudget(parseBudgetSpec("2x"), taskBudgetBasis(env, task, "episode"), "announced");
      episodes.push(
        await runEpisode(env, noisyOraclePolicy(0.5), {
          run: "demo",
          task,
          taskId: env.tasks.id(task),
          taskIndex: seed,
          budget,
          sample: 0,
          seed,
        }),
      );
    }
    const model = await createModel({
      config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 32, contextLength: 2048 },
      seed: 1,
    });
    const policy = tinyBackend({ model, policy: { maxNewTokens: 6 } }).policy();
    const all = demonstrationSequences(episodes, policy, everyReply);
    const optimal = demonstrationSequences(episodes, policy, optimalReplies);
    const turns = episodes.flatMap((episode) => episode.turns);
    const optimalTurns = turns.filter((turn) => turn.optimal === true).length;
    expect(optimalTurns).toBeGreaterThan(0);
    expect(optimalTurns).toBeLessThan(turns.length);
    expect(all.flatMap((sequence) => sequence.responses)).toHaveLength(turns.length);
    expect(optimal.flatMap((sequence) => sequence.responses)).toHaveLength(optimalTurns);
    // One sequence per episode here (a long context): the same tokens, a subset of the spans.
    expect(optimal.map((sequence) => sequence.tokens)).toEqual(all.map((sequence) => sequence.tokens));
    optimal.forEach((sequence, index) => {
      const spans = new Set(all[index]!.responses.map((span) => `${span.start}-${span.end}`));
      for (const span of sequence.responses) expect(spans.has(`${span.start}-${span.end}`)).toBe(true);
    });
  });
});
