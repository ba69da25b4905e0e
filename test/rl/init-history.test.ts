// A train run refuses to start from (--init) or resume on a checkpoint of the retired window history, with the
// one-line hint of policy.json, before any step.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { saveCheckpoint } from "../../src/nn/checkpoint.js";
import { createModel } from "../../src/nn/model.js";
import { train } from "../../src/rl/train.js";

describe("train on a window checkpoint", () => {
  it("refuses --init of a checkpoint whose policy.json records the window history, or none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "budgetrl-init-history-"));
    const init = join(dir, "base");
    const model = await createModel({
      config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 24, contextLength: 128 },
      seed: 1,
    });
    await saveCheckpoint(model, init);
    model.dispose();
    const config = {
      env: "frozenlake",
      backend: { kind: "tiny", init },
      algo: { name: "grpo" },
      tasksPerStep: 2,
      group: 2,
      steps: 1,
      evalEvery: 0,
    };
    for (const [settings, pattern] of [
      [{ maxNewTokens: 16, history: "window" }, /policy\.json records the retired 'window' history; retrain it/],
      [
        { maxNewTokens: 16 },
        /policy\.json records no history: the checkpoint was trained under the retired 'window' history; retrain it/,
      ],
    ] as const) {
      writeFileSync(join(init, "policy.json"), JSON.stringify(settings));
      const out = join(dir, `run-${settings.history ?? "none"}`);
      await expect(train({ out, config })).rejects.toThrow(pattern);
      expect(existsSync(join(out, "checkpoints"))).toBe(false);
    }
  });
});
