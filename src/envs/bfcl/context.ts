// The rules an entry is played and checked under, and the BfclContext that carries them with the loaded data
// and the backend classes: what the env, the offline checker, `bfcl run` and the bench share. Upstream's rules
// are the defaults (DEFAULT_RULES); `allowedNames` says which functions may run in a turn under `callable`.
import type { AnyBfclClass, BfclConstants } from "./apis/backend-class.js";
import { bfclClassRegistry, type BfclClassRegistry } from "./apis/class-registry.js";
import type { InstanceSet } from "./apis/instance-set.js";
import type { BfclDataset } from "./load/dataset.js";
import type { BfclEntry } from "./load/entries.js";
import type { EntryFunctions, FuncDoc } from "./load/func-docs.js";

/** tools: native tool calls, results as tool messages; prompting: calls as Python text, results as a user message. */
export type BfclMode = "tools" | "prompting";

/** Upstream MAXIMUM_STEP_LIMIT. */
export const MAXIMUM_STEP_LIMIT = 20;

/** Which functions may run: those offered this turn, all but excluded_function, or all (upstream's executor). */
export const CALLABLE_FUNCTIONS = ["offered", "unexcluded", "all"] as const;
export type CallableFunctions = (typeof CALLABLE_FUNCTIONS)[number];

export interface BfclRules {
  readonly mode: BfclMode;
  readonly callable: CallableFunctions;
  readonly maxStepsPerTurn: number;
  readonly stopOnFailure: boolean;
  readonly irrelevanceCheck: boolean;
}

export interface BfclContext {
  readonly registry: BfclClassRegistry;
  readonly constants: BfclConstants;
  readonly rules: BfclRules;
  /** The offered functions of an entry (cached by the caller). */
  functionsOf(entry: BfclEntry): EntryFunctions;
}

export const DEFAULT_RULES: BfclRules = Object.freeze({
  mode: "tools",
  callable: "unexcluded",
  maxStepsPerTurn: MAXIMUM_STEP_LIMIT,
  stopOnFailure: true,
  irrelevanceCheck: false,
});

export function createBfclContext(
  dataset: BfclDataset,
  classes: readonly AnyBfclClass[],
  rules: Partial<BfclRules> = {},
): BfclContext {
  return {
    registry: bfclClassRegistry(classes),
    constants: dataset.constants,
    rules: { ...DEFAULT_RULES, ...rules },
    functionsOf: (entry) => dataset.functionsOf(entry),
  };
}

/** The names that may run in a turn under `callable` (undefined: any method of the instances). */
export function allowedNames(
  callable: CallableFunctions,
  entry: BfclEntry,
  offered: readonly FuncDoc[],
  model: InstanceSet,
): ReadonlySet<string> | undefined {
  if (callable === "all") return undefined;
  if (callable === "offered") return new Set(offered.map((doc) => doc.name));
  const excluded = new Set(entry.excludedFunctions);
  return new Set([...model.methods.keys()].filter((name) => !excluded.has(name)));
}
