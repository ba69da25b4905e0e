// The in-process backend scores exactly the tokens the policy sampled: re-scored response log-probs equal the
// behaviour log-probs recorded at rollout time (so the first PPO ratio of a step is 1), and the training forward
// agrees with the scoring path.
import { describe, expect, it } from "vitest";
import { createModel } from "../../src/nn/model.js";
import { createEnv } from "../../src/envs/registry.js";
import { rolloutStep } from "../../src/rl/rollouts.js";
import { parseBudgetSchedule } from "../../src/rl/schedules/schedule.js";
import { policyExamples } from "../../src/rl/sequences.js";
import { tinyBackend } from "../../src/rl/tiny-backend.js";

describe("tinyBackend", () => {
  it("re-scores sampled replies to their behaviour log-probs, in scoring and in training passes", async () => {
    const model = await createModel({ config: { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 }, seed: 3 });
    const backend = tinyBackend({ model, policy: { maxNewTokens: 6 } });
    try {
      const groups = await rolloutStep(createEnv("hanoi", { disks: 2 }), backend.policy(), { step: 0, totalSteps: 1, seed: 2, tasksPerStep: 2, group: 2, schedule: parseBudgetSchedule("fixed:4"), budgetMode: "announced", budgetScope: "episode" });
      const examples = groups.flat().flatMap((episode) => policyExamples(episode, episode.turns.map(() => 1), backend.policy()));
      expect(examples.length).toBeGreaterThan(4);
      const scored = await backend.logprobs(examples.map((example) => example.sequence));
      let trainingMax = 0;
      await backend.accumulate(
        examples.map((example) => example.sequence),
        (logprobs, first) =>
          logprobs.map((values, offset) => {
            const old = (examples[first + offset] as (typeof examples)[number]).oldLogprobs;
            values.forEach((value, t) => (trainingMax = Math.max(trainingMax, Math.abs(value - (old[t] as number)))));
            return new Float32Array(values.length);
          }),
        1,
      );
      examples.forEach((example, i) => {
        expect(scored[i]?.length).toBe(example.oldLogprobs.length);
        example.oldLogprobs.forEach((value, t) => expect(Math.abs((scored[i]?.[t] as number) - value)).toBeLessThan(1e-4));
      });
      expect(trainingMax).toBeLessThan(1e-4);
    } finally {
      backend.dispose();
    }
  });
});
