// The package entry "budgetrl/envs/thinice": the env with its config schema, the types of its tasks and states and
// the count of distinct tasks. The root ("budgetrl") holds the constructor and its config type.
export { thinice, type CompiledThinIce, type ThinIceConfig, type ThinIceState, type ThinIceTask } from "./index.js";
export { thinIceConfigSchema } from "./config.js";
export { distinctTaskCount as thinIceDistinctTasks } from "./generator.js";
