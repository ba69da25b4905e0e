// How many tokens an RL step would save if a group's episodes shared the prefixes they have in common (a prefix
// tree over each group's training sequences, as a radix KV cache and tree-structured training would use), on
// the bench/train.ts setup: sokoban, a 40-step SFT warm start, 16 tasks x 8 samples, BudgetMix, a 256-token context.
// Counts every token of every sequence an episode was sampled in (prompts and replies) against the distinct
// prefixes within its group (a segment shares with the same segment of another episode of its group). The
// first prompt of a group is one of those shared prefixes, and the sampler already prefills it once.
// Run: npx tsx bench/prefix-sharing.ts [--steps 3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Episode } from "../src/core/episode.js";
import { createEnv } from "../src/envs/registry.js";
import { loadCheckpoint } from "../src/nn/checkpoint.js";
import { encodeText, END } from "../src/nn/tokenizer.js";
import type { TrainablePolicy } from "../src/rl/backend.js";
import { rolloutStep } from "../src/rl/rollouts.js";
import { parseBudgetSchedule } from "../src/rl/schedules/schedule.js";
import { runSft } from "../src/rl/sft-run.js";
import { tinyBackend } from "../src/rl/backends/tiny/backend.js";
import { BUDGET, ENV, GROUP, MAX_NEW_TOKENS, TASKS_PER_STEP, warmStartConfig } from "./rl-setup.js";

const { values } = parseArgs({ options: { steps: { type: "string", default: "3" } } });
const steps = Number(values.steps);

/** Tokens of a group's sequences, and how many distinct (segment index, prefix) pairs they hold. */
function groupTokens(group: readonly Episode[], policy: TrainablePolicy): { total: number; distinct: number } {
  const roots = new Map<number, Map<number, unknown>>();
  let total = 0;
  let distinct = 0;
  for (const episode of group) {
    const replies = episode.turns.map((turn) => turn.tokens ?? [...encodeText(turn.action.content), END]);
    policy.episodeSequences(episode, replies).forEach((sequence, segment) => {
      let node = roots.get(segment) ?? new Map<number, unknown>();
      roots.set(segment, node);
      for (const token of sequence.tokens) {
        total++;
        let child = node.get(token) as Map<number, unknown> | undefined;
        if (child === undefined) {
          child = new Map();
          node.set(token, child);
          distinct++;
        }
        node = child;
      }
    });
  }
  return { total, distinct };
}

const dir = mkdtempSync(join(tmpdir(), "budgetrl-bench-prefix-"));
try {
  await runSft({ out: join(dir, "base"), config: warmStartConfig(40) });
  const backend = tinyBackend({
    model: await loadCheckpoint(join(dir, "base")),
    policy: { maxNewTokens: MAX_NEW_TOKENS },
  });
  const policy = backend.policy();
  const env = createEnv(ENV, {});
  let total = 0;
  let distinct = 0;
  for (let step = 0; step < steps; step++) {
    const groups = await rolloutStep(env, policy, {
      step,
      totalSteps: steps,
      seed: 1,
      tasksPerStep: TASKS_PER_STEP,
      group: GROUP,
      schedule: parseBudgetSchedule(BUDGET),
      budgetMode: "announced",
      budgetScope: "episode",
    });
    for (const group of groups) {
      const counted = groupTokens(group, policy);
      total += counted.total;
      distinct += counted.distinct;
    }
  }
  console.log(
    `${steps} steps: ${total.toLocaleString("en-US")} tokens in the episodes' sequences, ${distinct.toLocaleString("en-US")} distinct prefixes within groups: sharing them would process ${(total / distinct).toFixed(2)}x fewer tokens`,
  );
  backend.dispose();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
