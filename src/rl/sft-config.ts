// The configuration of a supervised warm start (`budgetrl sft`), declared once: validated before any work starts
// (errors name the field); the CLI's flags, help and defaults come from it.
import { z } from "zod";
import { BUDGET_MODES, BUDGET_SCOPES } from "../core/budget.js";
import { budgetListField, choiceListField, parseConfig } from "../core/config.js";
import { ConfigError } from "../core/errors.js";
import { policySpecField } from "../core/policy-spec.js";
import { envNameField } from "../envs/registry.js";
import { hfDirProblem, hfRendererDir } from "../policies/renderers/hf-files.js";
import { templateOptionsField, toolCallFormatField } from "../policies/renderers/hf-options.js";
import { rendererNameField } from "../policies/renderers/renderer-names.js";
import { envOptionsField } from "../eval/config.js";
import { modelConfigField } from "../nn/config.js";
import { DEFAULT_MAX_NEW_TOKENS } from "../policies/tiny/context.js";
import { heldOutSetField } from "../eval/held-out-field.js";

/** Which demonstrated replies are SFT targets. */
export const SFT_TARGETS = ["all", "optimal", "bayes"] as const;
export type SftTargets = (typeof SFT_TARGETS)[number];

export const sftConfigSchema = z.object({
  env: envNameField("environment of the demonstrations").default("sokoban"),
  envOptions: envOptionsField,
  policy: policySpecField().prefault("noisy-oracle:0.3").describe("demonstrator policy"),
  tasks: z.number().int().min(1).default(500).describe("demonstration tasks, distinct by content"),
  samples: z.number().int().min(1).default(2).describe("demonstrations per task"),
  budgets: budgetListField()
    .prefault("100%")
    .meta({ flag: "budget" })
    .describe(
      "turn budgets of the demonstrations: every task is demonstrated at each (so the base model follows budget text rather than one budget)",
    ),
  budgetModes: choiceListField(BUDGET_MODES)
    .prefault("announced")
    .meta({ flag: "budget-mode" })
    .describe("budget texts of the demonstrations: every budget is demonstrated in each mode (e.g. announced,hidden)"),
  budgetScope: z
    .enum(BUDGET_SCOPES)
    .default("episode")
    .describe("what the budget counts: all turns, or the turns of each user turn (bfcl)"),
  imitate: z
    .enum(SFT_TARGETS)
    .default("all")
    .describe(
      "which demonstrated replies are trained on: all; optimal, those the oracle judged optimal within the turns left; bayes, as optimal where the budget is shown and, where it is hidden, those that are the move a budget-blind policy should make (optimal under the most posterior weight of the demonstration budgets, given the history). The others stay in the context: the base sees off-path states and learns to recover from them, not to make the noise",
    ),
  fromRun: z
    .string()
    .refine((name) => name.trim() !== "", "a run's name cannot be empty")
    .optional()
    .describe("use this stored run as the demonstrations instead of generating them"),
  exclude: heldOutSetField()
    .optional()
    .describe(
      "a held-out set the demonstrations leave out: SEED:TASKS (the first TASKS distinct tasks generated from SEED, by content), SEED:TASKS:structure (the first TASKS tasks of distinct structures, and every task of their structures) or a held-out.json (or the study folder holding it) as budgetrl reproduce writes it",
    ),
  seed: z.number().int().min(0).default(1).describe("seed of tasks, demonstrations, initialisation and batches"),
  modelConfig: modelConfigField()
    .default({})
    .describe("model config overrides (reference: 4 layers, d_model 128, context 256)"),
  steps: z.number().int().min(1).default(300).describe("optimiser steps"),
  batchSize: z.number().int().min(1).default(32).describe("sequences per step (a sequence: a segment of an episode)"),
  learningRate: z.number().positive().default(3e-3).describe("peak learning rate"),
  warmupSteps: z.number().int().min(0).default(20).describe("warm-up steps"),
  maxNewTokens: z
    .number()
    .int()
    .min(1)
    .default(DEFAULT_MAX_NEW_TOKENS)
    .describe("longest reply the policy samples (sets the prompt window)"),
  renderer: rendererNameField(
    "how the demonstrations become tokens: bytes (the tiny policy's) or hf:DIR (a Hugging Face tokenizer and chat template in DIR, whose ids fit the model's vocabulary); recorded in the checkpoint, which `budgetrl serve` renders with",
  ),
  templateOptions: templateOptionsField,
  toolCallFormat: toolCallFormatField,
});

export type SftConfig = z.output<typeof sftConfigSchema>;

/** Validate an SFT config; throws ConfigError naming the field (the hf renderer's files and options too). */
export function parseSftConfig(input: unknown): Readonly<SftConfig> {
  const config = parseConfig(sftConfigSchema, input);
  const dir = hfRendererDir(config.renderer);
  const problem = dir === undefined ? undefined : hfDirProblem(dir);
  if (problem !== undefined) throw new ConfigError("renderer", problem);
  if (dir === undefined && (Object.keys(config.templateOptions).length > 0 || config.toolCallFormat !== "auto"))
    throw new ConfigError(
      Object.keys(config.templateOptions).length > 0 ? "templateOptions" : "toolCallFormat",
      "is read by --renderer hf:DIR only",
      "the bytes renderer has no chat template",
    );
  return config;
}
