// Checkpoints: a directory that the Hugging Face tooling opens as a Llama model, plus what resuming needs.
//   config.json            Hugging Face LlamaConfig (LlamaForCausalLM)
//   model.safetensors      weights under Hugging Face names (model.layers.0.self_attn.q_proj.weight, ...)
//   optimizer.safetensors  AdamW moments (<name>.exp_avg, <name>.exp_avg_sq); the step count in metadata
//   budgetrl.json          manifest, written last: our config, and the byte size and SHA-256 of every file
// Loading checks the manifest first (its model config too: every field known and valid), so a truncated file, a
// flipped byte, a missing file or a garbled config is refused with a clear error before any weight is used.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError, DataError } from "../core/errors.js";
import { resolveConfig, type ModelConfig } from "./config.js";
import { createModel, type ModelOptions, type TinyModel } from "./model.js";
import { parameterSpecs } from "./params.js";
import { decodeSafetensors, encodeSafetensors, type NamedTensor } from "./safetensors.js";
import { END } from "./tokenizer.js";

const MANIFEST = "budgetrl.json";
const FORMAT = "budgetrl-checkpoint-1";

interface Manifest {
  readonly format: string;
  readonly config: ModelConfig;
  readonly optimizerStep: number;
  readonly files: Record<string, { readonly bytes: number; readonly sha256: string }>;
}

export function huggingFaceConfig(config: ModelConfig): Record<string, unknown> {
  return {
    architectures: ["LlamaForCausalLM"],
    model_type: "llama",
    vocab_size: config.vocabSize,
    hidden_size: config.dModel,
    intermediate_size: config.hiddenSize,
    num_hidden_layers: config.layers,
    num_attention_heads: config.heads,
    num_key_value_heads: config.heads,
    max_position_embeddings: config.contextLength,
    rms_norm_eps: config.normEps,
    rope_theta: config.ropeTheta,
    tie_word_embeddings: config.tiedEmbeddings,
    hidden_act: "silu",
    attention_bias: false,
    mlp_bias: false,
    eos_token_id: END,
    torch_dtype: "float32",
  };
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function writeAtomic(path: string, bytes: Uint8Array | string): Promise<void> {
  await writeFile(`${path}.tmp`, bytes);
  await rename(`${path}.tmp`, path);
}

export async function saveCheckpoint(model: TinyModel, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const params = model.parameters();
  const state = model.optimizerState();
  const slice = (flat: Float32Array, offset: number, length: number): Float32Array =>
    flat.subarray(offset, offset + length);
  const weights: NamedTensor[] = model.specs.map((s) => ({
    name: s.name,
    shape: s.shape,
    data: slice(params, s.offset, s.length),
  }));
  const moments: NamedTensor[] = model.specs.flatMap((s) => [
    { name: `${s.name}.exp_avg`, shape: s.shape, data: slice(state.m, s.offset, s.length) },
    { name: `${s.name}.exp_avg_sq`, shape: s.shape, data: slice(state.v, s.offset, s.length) },
  ]);
  const files: Record<string, Uint8Array> = {
    "config.json": Buffer.from(`${JSON.stringify(huggingFaceConfig(model.config), null, 2)}\n`),
    "model.safetensors": encodeSafetensors(weights, { format: "pt" }),
    "optimizer.safetensors": encodeSafetensors(moments, { step: String(state.step) }),
  };
  const manifest: Manifest = { format: FORMAT, config: model.config, optimizerStep: state.step, files: {} };
  for (const [name, bytes] of Object.entries(files)) {
    await writeAtomic(join(dir, name), bytes);
    manifest.files[name] = { bytes: bytes.length, sha256: sha256(bytes) };
  }
  await writeAtomic(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function readVerified(dir: string, manifest: Manifest, name: string): Promise<Uint8Array> {
  const expected = manifest.files[name];
  if (expected === undefined)
    throw new DataError(
      `${join(dir, MANIFEST)} does not list ${name}`,
      "the manifest is corrupted; restore the checkpoint",
    );
  let bytes: Uint8Array;
  try {
    bytes = await readFile(join(dir, name));
  } catch {
    throw new DataError(`checkpoint file ${join(dir, name)} is missing`, "copy the whole checkpoint directory");
  }
  if (bytes.length !== expected.bytes)
    throw new DataError(
      `${join(dir, name)} has ${bytes.length} bytes, the manifest says ${expected.bytes} (truncated?)`,
      "restore the checkpoint from a good copy",
    );
  if (sha256(bytes) !== expected.sha256)
    throw new DataError(
      `${join(dir, name)} does not match its SHA-256 in the manifest (corrupted)`,
      "restore the checkpoint from a good copy",
    );
  return bytes;
}

async function readManifest(dir: string): Promise<Manifest> {
  const path = join(dir, MANIFEST);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new DataError(
      `${path} is missing: ${dir} is not a budgetrl checkpoint (or its save was interrupted)`,
      "save with saveCheckpoint(); the manifest is written last",
    );
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new DataError(`${path} is not valid JSON (corrupted)`, "restore the checkpoint from a good copy");
  }
  if (
    manifest === null ||
    typeof manifest !== "object" ||
    manifest.format !== FORMAT ||
    typeof manifest.files !== "object" ||
    manifest.files === null
  )
    throw new DataError(`${path} is not a ${FORMAT} manifest`);
  if (!Number.isSafeInteger(manifest.optimizerStep) || manifest.optimizerStep < 0)
    throw new DataError(
      `${path}: optimizerStep must be a whole number >= 0, got ${JSON.stringify(manifest.optimizerStep)} (corrupted): restore the checkpoint from a good copy`,
    );
  return manifest;
}

/** The model config a manifest holds, checked as resolveConfig checks any (every field known, every value valid). */
function manifestConfig(dir: string, manifest: Manifest): ModelConfig {
  const path = join(dir, MANIFEST);
  if (manifest.config === undefined)
    throw new DataError(`${path} holds no model config (corrupted): restore the checkpoint from a good copy`);
  try {
    return resolveConfig(manifest.config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new DataError(
      `${path}: its model config is corrupted (${error.message}): restore the checkpoint from a good copy`,
    );
  }
}

export interface CheckpointContents {
  readonly config: ModelConfig;
  readonly weights: Float32Array;
  readonly optimizer: { readonly step: number; readonly m: Float32Array; readonly v: Float32Array };
}

/** Reads and verifies a checkpoint into flat arrays (weights in parameterSpecs order). */
export async function readCheckpoint(dir: string): Promise<CheckpointContents> {
  const manifest = await readManifest(dir);
  const config = manifestConfig(dir, manifest);
  await readVerified(dir, manifest, "config.json");
  const weightsFile = decodeSafetensors(
    await readVerified(dir, manifest, "model.safetensors"),
    join(dir, "model.safetensors"),
  );
  const optimizerFile = decodeSafetensors(
    await readVerified(dir, manifest, "optimizer.safetensors"),
    join(dir, "optimizer.safetensors"),
  );
  const specs = parameterSpecs(config);
  const total = specs.reduce((sum, s) => sum + s.length, 0);
  const weights = new Float32Array(total);
  const m = new Float32Array(total);
  const v = new Float32Array(total);
  const copy = (
    file: typeof weightsFile,
    name: string,
    out: Float32Array,
    offset: number,
    shape: readonly number[],
  ): void => {
    const tensor = file.tensors.get(name);
    if (tensor === undefined) throw new DataError(`${dir}: tensor ${name} is missing`);
    if (tensor.shape.join(",") !== shape.join(","))
      throw new DataError(
        `${dir}: tensor ${name} has shape [${tensor.shape.join(", ")}], expected [${shape.join(", ")}]`,
      );
    out.set(tensor.data, offset);
  };
  for (const s of specs) {
    copy(weightsFile, s.name, weights, s.offset, s.shape);
    copy(optimizerFile, `${s.name}.exp_avg`, m, s.offset, s.shape);
    copy(optimizerFile, `${s.name}.exp_avg_sq`, v, s.offset, s.shape);
  }
  return { config, weights, optimizer: { step: manifest.optimizerStep, m, v } };
}

/** A model with the checkpoint's config, weights and optimiser state (ready to resume training). */
export async function loadCheckpoint(
  dir: string,
  options: Omit<ModelOptions, "config" | "seed"> = {},
): Promise<TinyModel> {
  const contents = await readCheckpoint(dir);
  const model = await createModel({ ...options, config: contents.config });
  model.parameters().set(contents.weights);
  model.weightsChanged();
  const state = model.optimizerState();
  state.m.set(contents.optimizer.m);
  state.v.set(contents.optimizer.v);
  state.step = contents.optimizer.step;
  return model;
}
