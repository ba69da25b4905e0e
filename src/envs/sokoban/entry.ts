// The package entry "budgetrl/envs/sokoban": the env with its config schema, the types of its tasks and states, and
// the level text format (parseLevels/printLevel). The root ("budgetrl") holds the constructor and its config type.
export { sokoban, type CompiledSokoban, type SokobanConfig, type SokobanState, type SokobanTask } from "./index.js";
export { sokobanConfigSchema } from "./config.js";
export { parseLevels, printLevel } from "./levels.js";
