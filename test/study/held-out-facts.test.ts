// What a study's held-out tasks share with its training tasks: on thin ice, held out by structure, no demonstration
// or RL map of any seed has a held-out map's playable layout; on vault, held out by content, some held-out tasks share
// their lock pattern with a training task, and the facts say how many, seed by seed.
import { describe, expect, it } from "vitest";
import { studyConfig } from "../../src/study/config.js";
import { heldOutFacts } from "../../src/study/held-out-facts.js";

describe("heldOutFacts", () => {
  it("finds no held-out thin ice map's layout among the training maps, and counts vault's shared lock patterns", () => {
    const config = studyConfig({
      preset: "quick",
      seeds: [1, 2],
      overrides: { heldOutTasks: 120, demoTasks: 400, rlSteps: 10, tasksPerStep: 16, trainEvalTasks: 40 },
    });
    const [vault, thinice] = heldOutFacts(config, "/study");
    expect(thinice).toMatchObject({
      env: "thinice",
      by: "structure",
      tasks: 120,
      heldOutStructures: 120,
      distinctStructures: 606,
    });
    for (const seed of thinice?.seeds ?? []) {
      expect(seed.trainingTasks).toBe(400 + 10 * 16);
      expect(seed.seenIds).toEqual([]);
    }
    expect(vault).toMatchObject({ env: "vault", by: "content", tasks: 120, distinctStructures: 3054 });
    expect(vault?.seeds.map((seed) => seed.seed)).toEqual([1, 2]);
    // Small vaults have one or a few structures: training on 560 tasks meets most held-out patterns of few locks.
    expect(vault?.seeds.every((seed) => seed.seenIds.length > 10 && seed.seenIds.length < 120)).toBe(true);
  });
});
