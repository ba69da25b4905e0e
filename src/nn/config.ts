// The model's shape: a decoder-only Llama-style transformer. One typed config, validated before any memory is
// allocated; `referenceConfig` is the size the benchmark and the tiny policy use by default. Overrides name only
// fields of ModelConfig (an unknown key is refused, never ignored); `modelConfigField` checks them in the configs
// of sft, train and reproduce, so a bad model is refused before any demonstration is made.
import { z } from "zod";
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
  if (!Number.isSafeInteger(value) || value < 1)
    throw new ConfigError(`model.${field}`, `must be a positive integer, got ${value}`);
}

/** The fields a config may set, as listed in messages. */
export const MODEL_CONFIG_KEYS = Object.keys(referenceConfig) as readonly (keyof ModelConfig)[];

/** A complete, checked config from a partial one (missing fields come from `referenceConfig`); refuses a key that
 * is not a field of ModelConfig. */
export function resolveConfig(partial: Partial<ModelConfig> = {}): ModelConfig {
  if (partial === null || typeof partial !== "object" || Array.isArray(partial))
    throw new ConfigError("model", `expected an object of model config fields, got ${JSON.stringify(partial)}`);
  const unknown = Object.keys(partial).find((key) => !(MODEL_CONFIG_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined)
    throw new ConfigError(`model.${unknown}`, `unknown model config key (known: ${MODEL_CONFIG_KEYS.join(", ")})`);
  const config: ModelConfig = Object.freeze({ ...referenceConfig, ...partial });
  for (const field of ["vocabSize", "contextLength", "layers", "dModel", "heads", "hiddenSize"] as const)
    positiveInteger(field, config[field]);
  if (config.dModel % config.heads !== 0)
    throw new ConfigError("model.heads", `dModel ${config.dModel} is not divisible by heads ${config.heads}`);
  const headDim = config.dModel / config.heads;
  if (headDim % 4 !== 0)
    throw new ConfigError(
      "model.heads",
      `head size dModel/heads = ${headDim} must be a multiple of 4`,
      "the SIMD attention kernel reads heads 4 floats at a time",
    );
  if (!(config.ropeTheta > 0)) throw new ConfigError("model.ropeTheta", `must be positive, got ${config.ropeTheta}`);
  if (!(config.normEps > 0)) throw new ConfigError("model.normEps", `must be positive, got ${config.normEps}`);
  if (typeof config.tiedEmbeddings !== "boolean") throw new ConfigError("model.tiedEmbeddings", "must be a boolean");
  return config;
}

export function headDim(config: ModelConfig): number {
  return config.dModel / config.heads;
}

/** The fields a command's model overrides (KEY=NUMBER) may set: every numeric field of ModelConfig. */
export const MODEL_NUMBER_KEYS = MODEL_CONFIG_KEYS.filter((key) => typeof referenceConfig[key] === "number");

/** What is wrong with model config overrides (the key, and why), or undefined when they name numeric fields of
 * ModelConfig that resolveConfig takes. */
export function modelConfigProblem(
  overrides: Readonly<Record<string, unknown>>,
): { readonly key: string; readonly reason: string } | undefined {
  const unknown = Object.keys(overrides).find((key) => !(MODEL_NUMBER_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined)
    return { key: unknown, reason: `unknown model config key (known: ${MODEL_NUMBER_KEYS.join(", ")})` };
  try {
    resolveConfig(overrides as Partial<ModelConfig>);
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { key: error.field.replace(/^model\.?/, ""), reason: error.reason };
  }
}

/** Model config overrides in a command's config (KEY=NUMBER): known keys and valid values, checked when parsed. */
export function modelConfigField() {
  return z.record(z.string(), z.number()).superRefine((overrides, context) => {
    const problem = modelConfigProblem(overrides);
    if (problem !== undefined)
      context.addIssue({
        code: "custom",
        message: problem.reason,
        path: problem.key === "" ? [] : [problem.key],
        input: overrides,
      });
  });
}
