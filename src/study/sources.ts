// Where a study's models come from and where its RL runs train, as data stored with the study (study.json), so that
// --resume continues on the same sources. How to reach the servers (URLs, API keys' variables, timeouts) is not part
// of the study: those are run options (StudyReach), given again on --resume, never stored.
//
//   base: sft                demonstrations and SFT of a fresh in-process model here (the embedded study; default
//                            with the in-process trainer)
//         openai:MODEL       a model behind an OpenAI-compatible server (vLLM, `budgetrl serve`, ...), evaluated as
//                            it is served: no demonstrations, no SFT; its sampling options are stored (`--base-opt`)
//         tinker             the Tinker trainer's base model, sampled through the service as it is (a LoRA starts at
//                            zero: the RL runs' starting point; default with --trainer tinker)
//   trainer: tiny            the in-process transformer, from the SFT base's weights
//            tinker          one training client per RL variant on a Tinker service (`budgetrl train --backend
//                            tinker`): a LoRA of --base-model, prompts through --renderer (bytes, or hf:DIR: a model's
//                            own tokenizer.json and chat template); its checkpoints are evaluated by sampling their
//                            saved sampler weights on the same service
// An RL run needs weights it can train: the in-process trainer trains the SFT base only, the Tinker trainer its own
// base model (an openai: base is evaluated beside its RL runs, which train the Tinker base; the study cannot check
// that the two are the same model, so the report says what each one is).
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import type { JsonObject } from "../core/json.js";
import { parsePolicySpec } from "../core/policy-spec.js";
import { storedSamplingOptions } from "../policies/openai/options.js";
import { tinkerBackendFields } from "../rl/train-config.js";

export const BASE_KINDS = ["sft", "openai", "tinker"] as const;
export const TRAINER_KINDS = ["tiny", "tinker"] as const;
export type TrainerKind = (typeof TRAINER_KINDS)[number];

export const baseSourceSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("sft") }),
  z.strictObject({
    kind: z.literal("openai"),
    model: z.string().min(1),
    options: z.record(z.string(), z.json()).default({}),
  }),
  z.strictObject({ kind: z.literal("tinker") }),
]);
export type BaseSource = z.output<typeof baseSourceSchema>;

/** The Tinker trainer: the tinker backend's fields of every RL run (rlTrainConfig in plan.ts). */
export const trainerSourceSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("tiny") }),
  z.strictObject({
    kind: z.literal("tinker"),
    ...tinkerBackendFields,
    baseModel: tinkerBackendFields.baseModel.describe(
      "the base model every RL variant trains a LoRA of, as the Tinker service names it",
    ),
  }),
]);
export type TrainerSource = z.output<typeof trainerSourceSchema>;
export type TrainerSourceInput = z.input<typeof trainerSourceSchema>;

/** `--base` as written: "sft", "tinker", or "openai:MODEL" (any other policy is no base a study can start from). */
export function parseBaseSource(text: string, options: Readonly<Record<string, unknown>> = {}): BaseSource {
  const trimmed = text.trim();
  if (trimmed === "sft" || trimmed === "tinker") {
    if (Object.keys(options).length > 0)
      throw new ConfigError("baseOpt", `sampling options are for an openai: base, not ${trimmed}`, "drop --base-opt");
    return { kind: trimmed };
  }
  const spec = parsePolicySpec(trimmed, "base");
  if (spec.kind !== "openai")
    throw new ConfigError(
      "base",
      `"${text}" is no base a study can start from`,
      "use sft (demonstrations and SFT here), openai:MODEL (a served model, with --base-url) or tinker (the Tinker trainer's --base-model)",
    );
  return {
    kind: "openai",
    model: spec.model,
    options: { ...options } as Extract<BaseSource, { kind: "openai" }>["options"],
  };
}

/** `--base` back as written. */
export function baseSourceLabel(base: BaseSource): string {
  return base.kind === "openai" ? `openai:${base.model}` : base.kind;
}

/** An openai base's stored sampling options, defaults filled in; its replies as long as the study's other models'
 * unless said otherwise. */
export function baseSamplingOptions(options: Readonly<Record<string, unknown>>, maxNewTokens: number): JsonObject {
  try {
    return storedSamplingOptions({ maxTokens: maxNewTokens, ...options });
  } catch (error) {
    if (error instanceof ConfigError)
      throw new ConfigError(`base.options.${error.field.replace(/^openai\./, "")}`, error.reason);
    throw error;
  }
}

/** Refuses a base the trainer cannot train from, naming both fields, before any work. */
export function checkSources(base: BaseSource, trainer: TrainerSource): void {
  if (trainer.kind === "tiny" && base.kind !== "sft") {
    throw new ConfigError(
      "base",
      `${baseSourceLabel(base)} has no weights the in-process trainer (trainer: tiny) can train: it trains the SFT base it makes here`,
      "train through a Tinker service (--trainer tinker --base-model NAME --tinker-url URL), or use --base sft",
    );
  }
  if (trainer.kind === "tinker" && base.kind === "sft") {
    throw new ConfigError(
      "base",
      "sft makes an in-process model, which the Tinker trainer (trainer: tinker) cannot train: its RL runs start from --base-model",
      "use --base tinker (the default with --trainer tinker) or --base openai:MODEL",
    );
  }
}

/** How the study reaches its servers (never stored; given again on --resume). */
export interface StudyReach {
  /** The openai base's client options (baseUrl, apiKeyEnv, cache, ...: policies/openai/options.ts). */
  readonly openai?: Readonly<Record<string, unknown>>;
  /** The Tinker service (as `budgetrl train --tinker-url`). */
  readonly tinker?: { readonly baseUrl: string; readonly apiKey?: string; readonly timeoutMs?: number };
}
