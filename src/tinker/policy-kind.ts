// `tinker:` as a policy kind of the registry (policies/spec.ts), registered when this file is imported: by
// budgetrl/rl and budgetrl/tinker, and by the commands that build policies (eval, worker, the study). It lives here,
// with the Tinker client, above the policies layer; this file is light (zod and the checkpoint manifest): the client,
// the renderers and the wire format load when a policy is made (eval-policy.ts).
//
//   tinker:BASE                 the base model as the service names it (e.g. tinker:Qwen/Qwen3-8B)
//   tinker:CHECKPOINT           a training checkpoint folder (its budgetrl.json: sampler weights, base model, context)
//   tinker:tinker://PATH        sampler weights by their path on the service; the base model from --base-model
//   tinker:BASE@CHECKPOINT      a checkpoint (folder or tinker:// path) on the base model BASE (the study's labels)
//
// Options that change results are stored with the run (tinkerPolicyOptionsSchema: base model, renderer and its
// template options, temperature, reply and context lengths); how the service is reached comes with every invocation
// (the client options of group "tinker": --tinker-url, --tinker-api-key-env, --tinker-timeout, --tinker-deadline;
// with --request-concurrency, --cache and --no-cache) and is never stored.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import type { JsonObject } from "../core/json.js";
import { numberFromText, numberOption, parseOptions } from "../core/options.js";
import type { Policy } from "../core/policy.js";
import { policySpecLabel, type PolicySpec } from "../core/policy-spec.js";
import { parseClientOptions } from "../policies/openai/options.js";
import { resolveTinkerReach, type TinkerReach } from "../policies/tinker-reach.js";
import { registerPolicyKind, type PolicySetup } from "../policies/spec.js";
import { readTinkerCheckpoint } from "./checkpoint.js";
import { templateOptionsField, toolCallFormatField } from "../policies/renderers/hf-options.js";
import { rendererNameField } from "../policies/renderers/renderer-names.js";
import type { TinkerSamplerSource } from "./sampler-policy.js";

type TinkerSpec = Extract<PolicySpec, { kind: "tinker" }>;

const positiveInteger = (minimum: number) =>
  z.preprocess(
    numberFromText,
    z
      .number({ error: `expected an integer >= ${minimum}` })
      .int({ error: `expected an integer >= ${minimum}` })
      .min(minimum, { error: `expected an integer >= ${minimum}` }),
  );

const jsonFromText = (value: unknown): unknown => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/** The options of a tinker: policy that change its answers: stored with the run, defaults filled in. */
export const tinkerPolicyOptionsSchema = z.object({
  baseModel: z
    .string()
    .min(1)
    .optional()
    .describe(
      "the base model as the service names it: needed with tinker:tinker://PATH; default: the checkpoint's, or the argument",
    ),
  renderer: rendererNameField(
    "how conversations become tokens: bytes (budgetrl's byte tokenizer) or hf:DIR (a model's tokenizer.json and chat template)",
  ),
  templateOptions: z.preprocess(jsonFromText, templateOptionsField).default({}),
  toolCallFormat: toolCallFormatField,
  temperature: numberOption(0, 2, 1, "sampling temperature"),
  maxNewTokens: positiveInteger(1)
    .optional()
    .describe("longest reply in tokens (default: the checkpoint's, else budgetrl's default)"),
  contextLength: positiveInteger(8)
    .optional()
    .describe("the model's context in tokens (default: the checkpoint's, else the service's max_context_length)"),
});
export type TinkerPolicyOptions = z.output<typeof tinkerPolicyOptionsSchema>;

export function parseTinkerPolicyOptions(options: unknown): TinkerPolicyOptions {
  return parseOptions("tinker", tinkerPolicyOptionsSchema, options ?? {});
}

/** What a tinker: spec names, with the base model it samples on (`baseModel`: the --base-model option). */
export async function tinkerSource(spec: TinkerSpec, baseModel: string | undefined): Promise<TinkerSamplerSource> {
  const label = policySpecLabel(spec);
  const named = spec.checkpoint !== undefined && spec.baseModel !== undefined ? spec.baseModel : undefined;
  const target = spec.checkpoint ?? spec.baseModel;
  if (target === undefined)
    throw new ConfigError(
      "policy",
      "tinker needs a base model or sampler weights, e.g. tinker:Qwen/Qwen3-8B, tinker:runs/x/checkpoints/step-000060 or tinker:tinker://ID/sampler_weights/NAME",
    );
  const base = named ?? baseModel;
  if (named !== undefined && baseModel !== undefined && baseModel !== named)
    throw new ConfigError("baseModel", `the policy names base model ${named}, and --base-model ${baseModel}`);
  if (target.startsWith("tinker://")) {
    if (base === undefined)
      throw new ConfigError(
        "baseModel",
        `${label} needs the base model its weights were trained on`,
        "give --base-model NAME",
      );
    return { samplerPath: target, baseModel: base };
  }
  if (named !== undefined || existsSync(join(target, "budgetrl.json"))) {
    const checkpoint = await readTinkerCheckpoint(target);
    if (base !== undefined && base !== checkpoint.baseModel)
      throw new ConfigError("baseModel", `${target} was trained on ${checkpoint.baseModel}, not ${base}`);
    return { checkpoint };
  }
  if (baseModel !== undefined && baseModel !== target)
    throw new ConfigError(
      "baseModel",
      `tinker:${target} samples the base model ${target}, and --base-model says ${baseModel}`,
    );
  return { baseModel: target };
}

/** How the service is reached: the URL (option, else $TINKER_BASE_URL) and the API key from its variable
 * (policies/tinker-reach.ts, as for every command that reaches Tinker). */
export function tinkerReach(
  client: ReturnType<typeof parseClientOptions>,
  environment: NodeJS.ProcessEnv = process.env,
): TinkerReach {
  const reach = resolveTinkerReach(client, environment);
  if (reach === undefined)
    throw new ConfigError(
      "tinkerUrl",
      "a tinker: policy needs the service's address",
      "give --tinker-url URL (or set TINKER_BASE_URL)",
    );
  return reach;
}

/** The tinker: policy of a spec and setup: validated here, built by eval-policy.ts (loaded now). */
export async function createTinkerSamplerPolicy(spec: TinkerSpec, setup: PolicySetup): Promise<Policy> {
  const options = parseTinkerPolicyOptions(setup.options);
  const client = parseClientOptions(setup.client);
  const source = await tinkerSource(spec, options.baseModel);
  const reach = tinkerReach(client);
  const { openTinkerEvalPolicy } = await import("./eval-policy.js");
  return openTinkerEvalPolicy({
    name: policySpecLabel(spec),
    source,
    options,
    client,
    reach,
    ...(setup.onWait === undefined ? {} : { onWait: setup.onWait }),
  });
}

registerPolicyKind({
  kind: "tinker",
  usage: "tinker:BASE|CHECKPOINT|tinker://PATH",
  description:
    "a model on a Tinker service (--tinker-url): a base model, a training checkpoint's sampler weights or sampler weights by path (--base-model, --renderer)",
  usesClient: true,
  storedOptions: (options): JsonObject => JSON.parse(JSON.stringify(parseTinkerPolicyOptions(options))) as JsonObject,
  create: createTinkerSamplerPolicy,
});
