// The RL setup the training benches share (bench/train.ts, bench/train-profile.ts, bench/prefix-sharing.ts), so
// that their figures are about the same runs: sokoban, an SFT warm start on noisy-oracle:0.3 demonstrations,
// then GRPO steps of 16 tasks x 8 samples with BudgetMix budgets.
export const ENV = "sokoban";
export const TASKS_PER_STEP = 16;
export const GROUP = 8;
export const BUDGET = "budgetmix:25%,50%,75%,100%";
export const MAX_NEW_TOKENS = 16;

/** The SFT warm start's config (a model of `contextLength` tokens; default: the reference model's). */
export function warmStartConfig(steps: number, contextLength?: number) {
  return {
    env: ENV,
    policy: "noisy-oracle:0.3",
    tasks: 200,
    samples: 2,
    steps,
    batchSize: 32,
    maxNewTokens: MAX_NEW_TOKENS,
    ...(contextLength === undefined ? {} : { modelConfig: { contextLength } }),
  };
}

/** The RL run's config from the warm start in `init`. */
export function rlConfig(init: string, steps: number) {
  return {
    env: ENV,
    backend: { kind: "tiny", init },
    algo: { name: "grpo" },
    budget: BUDGET,
    tasksPerStep: TASKS_PER_STEP,
    group: GROUP,
    steps,
    learningRate: 1e-4,
    evalEvery: 0,
    checkpointEvery: 1000,
    maxNewTokens: MAX_NEW_TOKENS,
  };
}
