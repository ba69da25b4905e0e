// The package entry "budgetrl/envs/bfcl": BFCL multi-turn as a user meets it: the env with its config schema, the
// bundled data and its loader, the categories, and `budgetrl bfcl run` as a call. The root ("budgetrl") holds the
// constructor, its options and its env type. The wing's backends, checkers and call syntax stay behind its own
// index (index.ts), for budgetrl's layers only.
export { bfcl, type BfclEnv, type BfclTask } from "./env.js";
export { bfclConfigSchema, type BfclConfig, type BfclOptions } from "./config.js";
export {
  BFCL_CATEGORIES,
  BUNDLED_BFCL_DATA_DIR,
  loadBfclDataset,
  type BfclCategory,
  type BfclDataset,
  type BfclEntry,
} from "./load/index.js";
export type { BfclState } from "./play/index.js";
export { bfclRun, type BfclRunOptions } from "./run-calls.js";
