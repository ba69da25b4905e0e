// BFCL env options: one zod schema, a description and a default per field. Values may arrive typed (library
// users) or as strings (the CLI): "base,miss_func", "false", "20". Errors are ConfigErrors naming the option
// as "bfcl.<option>"; unknown options are refused.
import { z } from "zod";
import { ConfigError } from "../../core/errors.js";
import { BFCL_CATEGORIES } from "./data.js";
import { CALLABLE_FUNCTIONS, MAXIMUM_STEP_LIMIT } from "./episode.js";

function listFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value.split(",").map((item) => item.trim().replace(/^multi_turn_/, "")).filter((item) => item !== "");
}

function booleanFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const lowered = value.trim().toLowerCase();
  if (lowered === "true" || lowered === "1" || lowered === "yes") return true;
  if (lowered === "false" || lowered === "0" || lowered === "no") return false;
  return value;
}

function numberFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  return trimmed !== "" && Number.isFinite(Number(trimmed)) ? Number(trimmed) : value;
}

const categoryError = `expected a comma-separated list of ${BFCL_CATEGORIES.join(", ")}`;
const stepsError = "expected an integer from 1 to 1000";

export const bfclConfigSchema = z.object({
  dataDir: z.string({ error: "expected a path" }).default("").describe("Folder with upstream's BFCL data layout (data/, possible_answer/, func_doc/, default_state.json, long_context.json). Required."),
  categories: z
    .preprocess(listFromText, z.array(z.enum(BFCL_CATEGORIES, { error: categoryError }), { error: categoryError }).min(1, { error: categoryError }))
    .default([...BFCL_CATEGORIES])
    .describe(`Categories whose entries are the tasks, in this order: ${BFCL_CATEGORIES.join(", ")}.`),
  mode: z.enum(["tools", "prompting"], { error: "expected tools or prompting" }).default("tools").describe("tools: native tool calls, results as tool messages; prompting: upstream's system prompt, calls as [f(a=1)] text, results as a user message."),
  callable: z
    .enum(CALLABLE_FUNCTIONS, { error: `expected one of ${CALLABLE_FUNCTIONS.join(", ")}` })
    .default("unexcluded")
    .describe("Which functions run when called: offered (only those offered this turn), unexcluded (all but excluded_function; held-out miss_func functions run as upstream runs them), all (upstream's executor)."),
  maxStepsPerTurn: z
    .preprocess(numberFromText, z.number({ error: stepsError }).int({ error: stepsError }).min(1, { error: stepsError }).max(1000, { error: stepsError }))
    .default(MAXIMUM_STEP_LIMIT)
    .describe("Upstream's MAXIMUM_STEP_LIMIT: the entry is force-quit after this many responses with calls, plus one, in a user turn."),
  stopOnFailure: z.preprocess(booleanFromText, z.boolean({ error: "expected true or false" })).default(true).describe("End the episode at the first user turn that fails a check (the entry's verdict is decided there)."),
  irrelevanceCheck: z.preprocess(booleanFromText, z.boolean({ error: "expected true or false" })).default(false).describe("Also fail turns whose ground truth is empty when the model makes calls (upstream defines this check but does not apply it)."),
});

export type BfclConfig = z.output<typeof bfclConfigSchema>;
export type BfclOptions = z.input<typeof bfclConfigSchema>;

/** Validate options; throws ConfigError naming "bfcl.<option>". */
export function parseBfclConfig(options: unknown): Readonly<BfclConfig> {
  if (options !== undefined && (options === null || typeof options !== "object" || Array.isArray(options))) throw new ConfigError("bfcl", "options must be an object of option values");
  const known = Object.keys(bfclConfigSchema.shape);
  const unknown = Object.keys(options ?? {}).find((key) => !known.includes(key));
  if (unknown !== undefined) throw new ConfigError(`bfcl.${unknown}`, "unknown option", `bfcl options are: ${known.join(", ")}`);
  const result = bfclConfigSchema.safeParse(options ?? {});
  if (!result.success) {
    const issue = result.error.issues[0] as (typeof result.error.issues)[number];
    const field = issue.path.length > 0 ? `bfcl.${String(issue.path[0])}` : "bfcl";
    throw new ConfigError(field, issue.message);
  }
  if (result.data.dataDir.trim() === "") throw new ConfigError("bfcl.dataDir", "a data dir is required", "pass --data-dir DIR (a folder laid out like ../shared/bfcl)");
  return Object.freeze({ ...result.data, categories: [...new Set(result.data.categories)] });
}
