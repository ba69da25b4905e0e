// A Tinker checkpoint's manifest records the history it was trained under: segments reads back; the retired
// window history (or none recorded) is refused with the one-line hint, naming the manifest.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTinkerCheckpoint, TINKER_CHECKPOINT_FORMAT } from "../../src/tinker/checkpoint.js";

const manifest = {
  format: TINKER_CHECKPOINT_FORMAT,
  server: "http://127.0.0.1:1",
  baseModel: "tiny-260",
  loraRank: 4,
  modelId: "m",
  statePath: "tinker://s",
  samplerPath: "tinker://p",
  optimizerSteps: 3,
  contextLength: 256,
  maxNewTokens: 16,
  renderer: "bytes",
};

function checkpoint(fields: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-tinker-history-"));
  writeFileSync(join(dir, "budgetrl.json"), JSON.stringify(fields));
  return dir;
}

describe("a Tinker checkpoint's history", () => {
  it("reads segments back, and refuses the retired window history or none with a hint", async () => {
    await expect(readTinkerCheckpoint(checkpoint({ ...manifest, history: "segments" }))).resolves.toMatchObject({
      history: "segments",
      optimizerSteps: 3,
    });
    const window = checkpoint({ ...manifest, history: "window" });
    await expect(readTinkerCheckpoint(window)).rejects.toThrow(
      new RegExp(
        `^${join(window, "budgetrl.json")} records the retired 'window' history; retrain it \\(budgetrl sft / train\\), or add "history": "segments" to the file`,
      ),
    );
    await expect(readTinkerCheckpoint(checkpoint(manifest))).rejects.toThrow(
      /budgetrl\.json records no history: the checkpoint was trained under the retired 'window' history; retrain it/,
    );
  });
});
