// The model's shape: a decoder-only Llama-style transformer. One typed config, validated before any memory is
// allocated; `referenceConfig` is the size the benchmark and the tiny policy use by default.
import { ConfigError } from "../core/errors.js";

export interface ModelConfig {
  /** Token ids 0..vocabSize-1; the byte tokenizer needs at least 260 (256 bytes + 4 special tokens). */
  readonly vocabSize: number;
  /** Longest sequence (prompt plus answer) the model sees; rotary tables are built for it. */
  readonly contextLength: number;
  readonly layers: number;
  readonly dModel: number;
  readonly heads: number;
  /** SwiGLU inner size (Hugging Face `intermediate_size`). */
  readonly hiddenSize: number;
  /** Output head shares the token embedding matrix. */
  readonly tiedEmbeddings: boolean;
  readonly ropeTheta: number;
  readonly normEps: number;
}

export const referenceConfig: ModelConfig = Object.freeze({
  vocabSize: 260,
  contextLength: 256,
  layers: 4,
  dModel: 128,
  heads: 4,
  hiddenSize: 344,
  tiedEmbeddings: false,
  ropeTheta: 10000,
  normEps: 1e-5,
});

function positiveInteger(field: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`model.${field}`, `must be a positive integer, got ${value}`);
}

/** A complete, checked config from a partial one (missing fields come from `referenceConfig`). */
export function resolveConfig(partial: Partial<ModelConfig> = {}): ModelConfig {
  const config: ModelConfig = Object.freeze({ ...referenceConfig, ...partial });
  for (const field of ["vocabSize", "contextLength", "layers", "dModel", "heads", "hiddenSize"] as const) positiveInteger(field, config[field]);
  if (config.dModel % config.heads !== 0) throw new ConfigError("model.heads", `dModel ${config.dModel} is not divisible by heads ${config.heads}`);
  const headDim = config.dModel / config.heads;
  if (headDim % 4 !== 0) throw new ConfigError("model.heads", `head size dModel/heads = ${headDim} must be a multiple of 4`, "the SIMD attention kernel reads heads 4 floats at a time");
  if (!(config.ropeTheta > 0)) throw new ConfigError("model.ropeTheta", `must be positive, got ${config.ropeTheta}`);
  if (!(config.normEps > 0)) throw new ConfigError("model.normEps", `must be positive, got ${config.normEps}`);
  if (typeof config.tiedEmbeddings !== "boolean") throw new ConfigError("model.tiedEmbeddings", "must be a boolean");
  return config;
}

export function headDim(config: ModelConfig): number {
  return config.dModel / config.heads;
}
