// Checkpoints: save -> load gives identical logits and optimiser state (resume is exact), the directory
// reads as a Hugging Face Llama model, and truncated, corrupted or missing files are refused.
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataError } from "../../src/core/errors.js";
import { loadCheckpoint, readCheckpoint, saveCheckpoint } from "../../src/nn/checkpoint.js";
import { createModel } from "../../src/nn/model.js";
import { decodeSafetensors } from "../../src/nn/safetensors.js";
import { randomBatch, tinyConfig } from "./helpers.js";

const root = mkdtempSync(join(tmpdir(), "budgetrl-ckpt-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function trainedModel() {
  const model = await createModel({ config: tinyConfig, seed: 1 });
  for (let i = 0; i < 2; i++) {
    await model.lossAndGradient(randomBatch(tinyConfig, 2, 6, i));
    model.step();
  }
  return model;
}

describe("checkpoints", () => {
  it("save -> load gives identical logits, and resuming gives the identical next step", async () => {
    const model = await trainedModel();
    const dir = join(root, "a");
    await saveCheckpoint(model, dir);
    const loaded = await loadCheckpoint(dir);
    expect(loaded.config).toEqual(model.config);
    const seq = [[1, 2, 3, 4, 5, 6]];
    expect(Array.from((await loaded.logprobs(seq))[0]!)).toEqual(Array.from((await model.logprobs(seq))[0]!));
    expect(loaded.optimizerState().step).toBe(2);
    const batch = randomBatch(tinyConfig, 2, 6, 9);
    for (const m of [model, loaded]) {
      await m.lossAndGradient(batch);
      m.step();
    }
    expect(Array.from(loaded.parameters())).toEqual(Array.from(model.parameters()));
    model.dispose();
    loaded.dispose();
  });

  it("writes Hugging Face Llama names and config", async () => {
    const model = await createModel({ config: tinyConfig, seed: 2 });
    const dir = join(root, "hf");
    await saveCheckpoint(model, dir);
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
    expect(config).toMatchObject({
      model_type: "llama",
      architectures: ["LlamaForCausalLM"],
      hidden_size: 8,
      intermediate_size: 12,
      num_hidden_layers: 2,
      num_attention_heads: 2,
      vocab_size: 20,
    });
    const file = decodeSafetensors(readFileSync(join(dir, "model.safetensors")), "model.safetensors");
    expect([...file.tensors.keys()]).toContain("model.layers.1.self_attn.q_proj.weight");
    expect(file.tensors.get("model.layers.0.mlp.down_proj.weight")!.shape).toEqual([8, 12]);
    expect(file.tensors.get("lm_head.weight")!.shape).toEqual([20, 8]);
    model.dispose();
  });

  it("refuses a flipped byte anywhere, a truncated file and a missing manifest", async () => {
    const model = await trainedModel();
    const dir = join(root, "b");
    await saveCheckpoint(model, dir);
    model.dispose();
    const path = join(dir, "model.safetensors");
    const good = readFileSync(path);
    for (const position of [3, 100, good.length - 1]) {
      const bad = Buffer.from(good);
      bad[position] = bad[position]! ^ 0x10;
      writeFileSync(path, bad);
      await expect(readCheckpoint(dir)).rejects.toThrow(/SHA-256|corrupted/);
    }
    writeFileSync(path, good);
    await expect(readCheckpoint(dir)).resolves.toBeDefined();
    truncateSync(path, good.length - 7);
    await expect(readCheckpoint(dir)).rejects.toThrow(/truncated/);
    rmSync(join(dir, "budgetrl.json"));
    await expect(readCheckpoint(dir)).rejects.toThrow(DataError);
  });

  it("refuses a manifest whose model config or step is garbage instead of filling it in", async () => {
    const model = await createModel({ config: tinyConfig, seed: 4 });
    const dir = join(root, "config");
    await saveCheckpoint(model, dir);
    model.dispose();
    const path = join(dir, "budgetrl.json");
    const manifest = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
    const config = manifest["config"] as Record<string, unknown>;
    const garbage: [unknown, unknown, RegExp][] = [
      [
        "garbage",
        2,
        /its model config is corrupted \(model: expected an object of model config fields, got "garbage"\)/,
      ],
      [[1, 2], 2, /its model config is corrupted \(model: expected an object/],
      [undefined, 2, /holds no model config/],
      [{ ...config, colour: "red" }, 2, /its model config is corrupted \(model\.colour: unknown model config key/],
      [
        { ...config, heads: 3 },
        2,
        /its model config is corrupted \(model\.heads: dModel 8 is not divisible by heads 3\)/,
      ],
      [config, -1, /optimizerStep must be a whole number >= 0, got -1/],
    ];
    for (const [bad, step, pattern] of garbage) {
      writeFileSync(path, JSON.stringify({ ...manifest, config: bad, optimizerStep: step }));
      await expect(readCheckpoint(dir)).rejects.toThrow(pattern);
      await expect(readCheckpoint(dir)).rejects.toBeInstanceOf(DataError);
    }
    writeFileSync(path, JSON.stringify(manifest));
    await expect(readCheckpoint(dir)).resolves.toBeDefined();
  });

  it("decodeSafetensors itself refuses truncated data and bad offsets", async () => {
    const model = await createModel({ config: tinyConfig, seed: 3 });
    const dir = join(root, "c");
    await saveCheckpoint(model, dir);
    model.dispose();
    const bytes = readFileSync(join(dir, "model.safetensors"));
    expect(() => decodeSafetensors(bytes.subarray(0, bytes.length - 4), "x")).toThrow(/truncated/);
    expect(() => decodeSafetensors(bytes.subarray(0, 5), "x")).toThrow(/shorter/);
    const header = Buffer.from(bytes);
    header.writeBigUInt64LE(10n ** 12n, 0);
    expect(() => decodeSafetensors(header, "x")).toThrow(/header claims/);
  });
});
