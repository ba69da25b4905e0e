// A BfclContext from a loaded dataset and a list of backend classes, with upstream's rules by default: what the
// env, the offline checker, `bfcl run` and the bench share.
import type { AnyBfclClass } from "./apis/backend-class.js";
import type { BfclDataset } from "./load/dataset.js";
import { MAXIMUM_STEP_LIMIT, type BfclContext, type BfclRules } from "./play/inference-loop.js";
import { bfclClassRegistry } from "./apis/class-registry.js";

export const DEFAULT_RULES: BfclRules = Object.freeze({ mode: "tools", callable: "unexcluded", maxStepsPerTurn: MAXIMUM_STEP_LIMIT, stopOnFailure: true, irrelevanceCheck: false });

export function createBfclContext(dataset: BfclDataset, classes: readonly AnyBfclClass[], rules: Partial<BfclRules> = {}): BfclContext {
  return {
    registry: bfclClassRegistry(classes),
    constants: dataset.constants,
    rules: { ...DEFAULT_RULES, ...rules },
    functionsOf: (entry) => dataset.functionsOf(entry),
  };
}
