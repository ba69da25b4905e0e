// BFCL env options: one zod schema, a description and a default per field (the shared option builders of
// core/options.ts). Values may arrive typed (library users) or as strings (the CLI): "base,miss_func",
// "false", "20". Errors are ConfigErrors naming the option as "bfcl.<option>"; unknown options are refused.
import { z } from "zod";
import { ConfigError } from "../../core/errors.js";
import { booleanOption, integerOption, parseOptions } from "../../core/options.js";
import { CALLABLE_FUNCTIONS, MAXIMUM_STEP_LIMIT } from "./context.js";
import { BFCL_CATEGORIES } from "./load/entries.js";

/** "base, multi_turn_miss_func" -> ["base", "miss_func"], duplicates dropped. */
function categoryList(value: unknown): unknown {
  const items = typeof value === "string" ? value.split(",") : value;
  if (!Array.isArray(items)) return value;
  const names = items
    .map((item) => (typeof item === "string" ? item.trim().replace(/^multi_turn_/, "") : item))
    .filter((item) => item !== "");
  return [...new Set(names)];
}

const categoryError = `expected a comma-separated list of ${BFCL_CATEGORIES.join(", ")}`;

export const bfclConfigSchema = z.object({
  dataDir: z
    .string({ error: "expected a path" })
    .default("")
    .describe(
      "Folder with upstream's BFCL data layout (data/, possible_answer/, func_doc/, default_state.json, long_context.json); empty for the copy bundled with budgetrl (data/bfcl).",
    ),
  categories: z
    .preprocess(
      categoryList,
      z
        .array(z.enum(BFCL_CATEGORIES, { error: categoryError }), { error: categoryError })
        .min(1, { error: categoryError }),
    )
    .default([...BFCL_CATEGORIES])
    .describe(`Categories whose entries are the tasks, in this order: ${BFCL_CATEGORIES.join(", ")}.`),
  mode: z
    .enum(["tools", "prompting"], { error: "expected tools or prompting" })
    .default("tools")
    .describe(
      "tools: native tool calls, results as tool messages; prompting: upstream's system prompt, calls as [f(a=1)] text, results as a user message.",
    ),
  callable: z
    .enum(CALLABLE_FUNCTIONS, { error: `expected one of ${CALLABLE_FUNCTIONS.join(", ")}` })
    .default("unexcluded")
    .describe(
      "Which functions run when called: offered (only those offered this turn), unexcluded (all but excluded_function; held-out miss_func functions run as upstream runs them), all (upstream's executor).",
    ),
  maxStepsPerTurn: integerOption(
    1,
    1000,
    MAXIMUM_STEP_LIMIT,
    "Upstream's MAXIMUM_STEP_LIMIT: the entry is force-quit after this many responses with calls, plus one, in a user turn.",
  ),
  stopOnFailure: booleanOption(
    true,
    "End the episode at the first user turn that fails a check (the entry's verdict is decided there).",
  ),
  irrelevanceCheck: booleanOption(
    false,
    "Also fail turns whose ground truth is empty when the model makes calls (upstream defines this check but does not apply it).",
  ),
});

export type BfclConfig = z.output<typeof bfclConfigSchema>;
export type BfclOptions = z.input<typeof bfclConfigSchema>;

/** Validate options; throws ConfigError naming "bfcl.<option>". */
export function parseBfclConfig(options: unknown): Readonly<BfclConfig> {
  const config = parseOptions("bfcl", bfclConfigSchema, options);
  if (config.dataDir !== "" && config.dataDir.trim() === "")
    throw new ConfigError(
      "bfcl.dataDir",
      "expected a path, found only spaces",
      "leave --data-dir out to use the bundled data (data/bfcl), or pass a folder laid out like it",
    );
  return config;
}
