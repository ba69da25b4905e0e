// A tiny:CHECKPOINT policy made from its spec owns its model: evaluate() closes it after the run, which gives the
// weights, workspaces and KV caches back to the shared heap. A study evaluates dozens of checkpoints in one
// process; before, every run kept its model and a sokoban study ran the 4 GiB heap out.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../../src/eval/evaluate.js";
import { saveCheckpoint } from "../../../src/nn/checkpoint.js";
import { sharedHeap } from "../../../src/nn/heap.js";
import { createModel } from "../../../src/nn/model.js";

describe("tiny:CHECKPOINT from a spec", () => {
  it("gives its model's memory back when evaluate() ends, run after run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "budgetrl-tiny-close-"));
    const model = await createModel({
      config: { vocabSize: 260, contextLength: 128, layers: 1, dModel: 32, heads: 2, hiddenSize: 48 },
      seed: 3,
    });
    await saveCheckpoint(model, join(dir, "ckpt"));
    model.dispose();
    const heap = sharedHeap();
    const before = heap.used();
    const runs = [];
    for (let run = 0; run < 3; run++) {
      runs.push(
        await evaluate({
          env: "sokoban",
          policy: `tiny:${join(dir, "ckpt")}`,
          tasks: 4,
          samples: 2,
          ks: [1],
          budgets: ["50%"],
          seed: 1,
          bootstrap: 0,
          concurrency: 8,
        }),
      );
      expect(heap.used()).toBe(before);
    }
    // The runs did play (the model was loaded and sampled), and alike: same seed, same checkpoint.
    expect(runs[0]?.table.tasks).toBe(4);
    expect(runs[1]?.table.cells).toEqual(runs[0]?.table.cells);
  });
});
