// Training never draws a held-out task: neither its own evaluation tasks nor a study's held-out set (by content),
// where generated tasks repeat often enough that without exclusion it would.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deriveSeed } from "../../src/core/rng.js";
import { createEnv } from "../../src/envs/registry.js";
import { heldOutTaskIds } from "../../src/eval/tasks.js";
import { train } from "../../src/rl/train.js";
import { openStore } from "../../src/store/open.js";
import { readTrainSteps } from "../../src/store/train-log.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-held-out-"));
const modelConfig = { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 96 };

async function trainedTaskIds(out: string, extra: Record<string, unknown>): Promise<string[]> {
  await train({
    out,
    config: {
      env: "frozenlake",
      backend: { kind: "tiny", modelConfig },
      steps: 6,
      tasksPerStep: 16,
      group: 2,
      evalEvery: 6,
      evalTasks: 40,
      evalSamples: 1,
      evalBudgets: ["100%"],
      checkpointEvery: 6,
      maxNewTokens: 4,
      ...extra,
    },
  });
  const store = await openStore(join(out, "train.db"), { readonly: true });
  try {
    return (await readTrainSteps(store, "train")).flatMap(({ metrics }) => (metrics as { taskIds: string[] }).taskIds);
  } finally {
    await store.close();
  }
}

describe("training tasks", () => {
  it("leave out the run's evaluation tasks and another held-out set, which plain draws would hit", async () => {
    const env = createEnv("frozenlake");
    const study = { seed: 77, tasks: 40 };
    const evaluation = heldOutTaskIds(env, { seed: deriveSeed(1, "eval"), tasks: 40 });
    const studyIds = heldOutTaskIds(env, study);
    const plain = await trainedTaskIds(join(dir, "plain"), { excludeHeldOut: false });
    expect(plain).toHaveLength(96);
    expect(plain.filter((id) => evaluation.has(id) || studyIds.has(id)).length).toBeGreaterThan(10);
    const kept = await trainedTaskIds(join(dir, "kept"), { exclude: study });
    expect(kept).toHaveLength(96);
    expect(kept.filter((id) => evaluation.has(id) || studyIds.has(id))).toEqual([]);
  }, 120_000);
});
