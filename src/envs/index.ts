// The built-in environments, as the package exports them: the registry (create an env by name, its options and
// help), each env's constructor, config schema and task-file helpers, BFCL multi-turn (the env, its data and
// `budgetrl bfcl run`), and the helpers env authors share (answer extraction, directions, oracle answers from
// shortest paths, the turns-left check). The option builders are in core. BFCL's backends, checkers and call
// syntax stay behind its own index (bfcl/index.ts).
export {
  createEnv,
  defineEnv,
  ENV_NAMES,
  envConfigHelp,
  envDefinition,
  envOptions,
  isEnvName,
  type EnvDefinition,
  type EnvName,
} from "./registry.js";
export {
  sokoban,
  type CompiledSokoban,
  type SokobanConfig,
  type SokobanState,
  type SokobanTask,
} from "./sokoban/index.js";
export { sokobanConfigSchema } from "./sokoban/config.js";
export { parseLevels, printLevel } from "./sokoban/levels.js";
export {
  frozenlake,
  type CompiledFrozenLake,
  type FrozenLakeConfig,
  type FrozenLakeState,
  type FrozenLakeTask,
} from "./frozenlake/index.js";
export { frozenLakeConfigSchema } from "./frozenlake/config.js";
export { NAMED_MAPS, parseMaps, printMap } from "./frozenlake/maps.js";
export { hanoi, type HanoiConfig, type HanoiState, type HanoiTask } from "./hanoi/index.js";
export { hanoiConfigSchema } from "./hanoi/config.js";
export { vault, type CompiledVault, type VaultConfig, type VaultState, type VaultTask } from "./vault/index.js";
export { vaultConfigSchema } from "./vault/config.js";
export { distinctVaultTasks } from "./vault/generator.js";
export { parseVaultTasks, printVaultTask } from "./vault/tasks.js";
export { measureVaultTradeoff, vaultTradeoffMarkdown, type VaultTradeoff } from "./vault/tradeoff.js";
export {
  thinice,
  type CompiledThinIce,
  type ThinIceConfig,
  type ThinIceState,
  type ThinIceTask,
} from "./thinice/index.js";
export { thinIceConfigSchema } from "./thinice/config.js";
export { distinctTaskCount as thinIceDistinctTasks } from "./thinice/generator.js";
export { extractAnswer, normalizeAnswer, parseChoice, aliasTable, MAX_ANSWER_LENGTH } from "./shared/answer.js";
export { DIRECTIONS, directionsOfMask, parseDirection, type Direction } from "./shared/directions.js";
export { shortestPathAnswer, shortestPathValue } from "./shared/shortest-path-answer.js";
export { checkTurnsLeft } from "./shared/turns-left.js";
export {
  BFCL_CATEGORIES,
  bfcl,
  bfclConfigSchema,
  bfclRun,
  BUNDLED_BFCL_DATA_DIR,
  loadBfclDataset,
  type BfclCategory,
  type BfclConfig,
  type BfclDataset,
  type BfclEntry,
  type BfclEnv,
  type BfclOptions,
  type BfclRunOptions,
  type BfclState,
  type BfclTask,
} from "./bfcl/index.js";
