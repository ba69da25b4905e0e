// The in-process backend scores exactly the tokens the policy sampled, in the sequences it sampled them in:
// re-scored response log-probs equal the behaviour log-probs recorded at rollout time (so the first PPO ratio
// of a step is 1), in scoring and in training passes; and training an episode's segment
// as one sequence gives the gradient of training each of its turns as its own sequence.
import { describe, expect, it } from "vitest";
import { createModel, type TinyModel } from "../../../../src/nn/model.js";
import { createEnv } from "../../../../src/envs/registry.js";
import type { TrainerBackend, TrainSequence } from "../../../../src/rl/backend.js";
import { rolloutStep } from "../../../../src/rl/rollouts.js";
import { parseBudgetSchedule } from "../../../../src/rl/schedules/schedule.js";
import { policyExamples, type PolicyExample } from "../../../../src/rl/sequences.js";
import { tinyBackend } from "../../../../src/rl/backends/tiny/backend.js";
import { maxAbsDiff } from "../../../nn/helpers.js";

const config = { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 512 };

async function examplesOf(model: TinyModel): Promise<{ backend: TrainerBackend; examples: PolicyExample[] }> {
  const backend = tinyBackend({ model, policy: { maxNewTokens: 6 } });
  const groups = await rolloutStep(createEnv("hanoi", { disks: 2 }), backend.policy(), {
    step: 0,
    totalSteps: 1,
    seed: 2,
    tasksPerStep: 1,
    group: 4,
    schedule: parseBudgetSchedule("fixed:5"),
    budgetMode: "announced",
    budgetScope: "episode",
  });
  const examples = groups.flat().flatMap((episode) =>
    policyExamples(
      episode,
      episode.turns.map((_, t) => 1 + t),
      backend.policy(),
    ),
  );
  return { backend, examples };
}

/** The summed gradient of -sum_t A_t log p over these sequences (advantages from the examples' order). */
async function gradient(
  model: TinyModel,
  backend: TrainerBackend,
  sequences: readonly TrainSequence[],
  advantages: readonly Float32Array[],
): Promise<Float32Array> {
  model.zeroGradients();
  await backend.accumulate(sequences, (logprobs, first) => logprobs.map((_, i) => advantages[first + i]!), 10);
  return Float32Array.from(model.gradients());
}

describe("tinyBackend", () => {
  it("re-scores sampled replies to their behaviour log-probs, in scoring and in training passes", async () => {
    const model = await createModel({ config, seed: 3 });
    const { backend, examples } = await examplesOf(model);
    try {
      const turns = examples.reduce((sum, example) => sum + example.sequence.responses.length, 0);
      expect(turns).toBeGreaterThan(8);
      expect(examples.some((example) => example.sequence.responses.length > 2)).toBe(true);
      const scored = await backend.logprobs(examples.map((example) => example.sequence));
      let trainingMax = 0;
      await backend.accumulate(
        examples.map((example) => example.sequence),
        (logprobs, first) =>
          logprobs.map((values, offset) => {
            trainingMax = Math.max(trainingMax, maxAbsDiff(values, examples[first + offset]!.oldLogprobs));
            return new Float32Array(values.length);
          }),
        1,
      );
      examples.forEach((example, i) => expect(maxAbsDiff(scored[i]!, example.oldLogprobs)).toBeLessThan(1e-4));
      expect(trainingMax).toBeLessThan(1e-4);
    } finally {
      backend.dispose();
    }
  });

  it("trains a segment as one sequence with the gradient of its turns trained one by one", async () => {
    const model = await createModel({ config, seed: 4, backend: "reference" });
    const { backend, examples } = await examplesOf(model);
    try {
      const whole = await gradient(
        model,
        backend,
        examples.map((example) => example.sequence),
        examples.map((example) => example.advantages),
      );
      // Each turn alone: its sequence up to the end of its reply, that reply the only response.
      const turns = examples.flatMap((example) => {
        let at = 0;
        return example.sequence.responses.map((span) => {
          const advantages = example.advantages.subarray(at, (at += span.end - span.start));
          return { sequence: { tokens: example.sequence.tokens.slice(0, span.end), responses: [span] }, advantages };
        });
      });
      expect(turns.length).toBeGreaterThan(examples.length);
      const perTurn = await gradient(
        model,
        backend,
        turns.map((turn) => turn.sequence),
        turns.map((turn) => turn.advantages),
      );
      const scale = Math.max(...Array.from(whole, Math.abs));
      expect(scale).toBeGreaterThan(0);
      expect(maxAbsDiff(whole, perTurn) / scale).toBeLessThan(1e-5);
    } finally {
      backend.dispose();
    }
  });
});
