// Where a study's models come from and where its RL runs train, as data stored with the study (study.json), so that
// --resume continues on the same sources. How to reach the servers (URLs, API keys' variables, timeouts) is not part
// of the study: those are run options (StudyReach: the served base's typed openai client options, as `budgetrl eval`
// takes them, and the Tinker service), given again on --resume, never stored.
//
//   base: sft                demonstrations and SFT of a fresh in-process model here (the embedded study; default
//                            with the in-process trainer)
//         openai:MODEL       a model behind an OpenAI-compatible server (vLLM, `budgetrl serve`, ...), evaluated as
//                            it is served: no demonstrations, no SFT; its sampling options (`--base-opt`) are typed
//                            (samplingOptionsSchema) and stored with every default filled in, read back by the schema
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
import { readPolicySpec } from "../core/policy-spec.js";
import {
  parseGivenClientOptions,
  parseGivenSamplingOptions,
  parseSamplingOptions,
  storedSamplingOptions,
  type GivenClientOptions,
  type GivenSamplingOptions,
  type SamplingOptions,
} from "../policies/openai/options.js";
import { tinkerBackendFields } from "../rl/train-config.js";

export const BASE_KINDS = ["sft", "openai", "tinker"] as const;
export const TRAINER_KINDS = ["tiny", "tinker"] as const;
export type TrainerKind = (typeof TRAINER_KINDS)[number];

/** A ConfigError of the openai options ("openai.temperature: ...") as an issue at the option's own path. */
function optionIssue(error: ConfigError, input: unknown): z.core.$ZodRawIssue {
  const option = error.field.replace(/^openai\.?/, "");
  return { code: "custom", message: error.reason, input, path: option === "" ? [] : [option] };
}

/** An openai base's sampling options in study.json: stored as JSON with every default filled in
 * (storedSamplingOptions), read back to typed SamplingOptions by their schema; an unknown option or a bad value is
 * refused naming it (base.options.topK: unknown option). */
const jsonRecord = z.record(z.string(), z.json());
const storedSamplingField = z
  .codec(jsonRecord, z.custom<SamplingOptions>(), {
    decode: (stored, context) => {
      try {
        return parseSamplingOptions(stored);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        context.issues.push(optionIssue(error, stored));
        return z.NEVER;
      }
    },
    encode: (options) => storedSamplingOptions(options) as z.output<typeof jsonRecord>,
  })
  .prefault({});

export const baseSourceSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("sft") }),
  z.strictObject({ kind: z.literal("openai"), model: z.string().min(1), options: storedSamplingField }),
  z.strictObject({ kind: z.literal("tinker") }),
]);
export type BaseSource = z.output<typeof baseSourceSchema>;

/** A base as a new study is given it: an openai base with only the sampling options set (studyConfig fills in the
 * rest, maxTokens from the study's maxNewTokens). */
export type BaseChoice =
  | Exclude<BaseSource, { kind: "openai" }>
  | { readonly kind: "openai"; readonly model: string; readonly options?: GivenSamplingOptions };

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

/** An openai option's ConfigError named as the study names it: base.options.<option>. */
function asBaseOption(error: unknown): unknown {
  return error instanceof ConfigError
    ? new ConfigError(`base.options${error.field.replace(/^openai/, "")}`, error.reason)
    : error;
}

/** An openai base's sampling options as given (typed, or `--base-opt` strings), read to their types; errors name
 * base.options.<option>. */
export function parseBaseOptions(options: unknown): GivenSamplingOptions {
  try {
    return parseGivenSamplingOptions(options);
  } catch (error) {
    throw asBaseOption(error);
  }
}

/** `--base` as written: "sft", "tinker", or "openai:MODEL" (any other policy is no base a study can start from). */
export function parseBaseSource(text: string, options: GivenSamplingOptions = {}): BaseChoice {
  const trimmed = text.trim();
  if (trimmed === "sft" || trimmed === "tinker") {
    if (Object.keys(options).length > 0)
      throw new ConfigError("baseOpt", `sampling options are for an openai: base, not ${trimmed}`, "drop --base-opt");
    return { kind: trimmed };
  }
  const spec = readPolicySpec(trimmed, "base");
  if (spec.kind !== "openai")
    throw new ConfigError(
      "base",
      `"${text}" is no base a study can start from`,
      "use sft (demonstrations and SFT here), openai:MODEL (a served model, with --base-url) or tinker (the Tinker trainer's --base-model)",
    );
  return { kind: "openai", model: spec.model, options };
}

/** `--base` back as written. */
export function baseSourceLabel(base: BaseSource): string {
  return base.kind === "openai" ? `openai:${base.model}` : base.kind;
}

/** An openai base's sampling options in their stored form, defaults filled in; its replies as long as the study's
 * other models' unless said otherwise. */
export function baseSamplingOptions(options: GivenSamplingOptions, maxNewTokens: number): JsonObject {
  try {
    return storedSamplingOptions({ maxTokens: maxNewTokens, ...options });
  } catch (error) {
    throw asBaseOption(error);
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
  /** The openai base's client options as given (clientOptionsSchema: baseUrl, apiKeyEnv, concurrency, rpm, timeoutMs,
   * retries, backoffMs, maxBackoffMs, cache, cacheDir), handed to each of its evaluations as `eval` hands them. */
  readonly openai?: GivenClientOptions;
  /** The Tinker service (as `budgetrl train --tinker-url`). */
  readonly tinker?: { readonly baseUrl: string; readonly apiKey?: string; readonly timeoutMs?: number };
}

/** The reach as given, its openai client options validated before any work (errors name openai.<option>). */
export function parseStudyReach(reach: StudyReach | undefined): StudyReach {
  if (reach?.openai === undefined) return reach ?? {};
  return { ...reach, openai: parseGivenClientOptions(reach.openai) };
}
