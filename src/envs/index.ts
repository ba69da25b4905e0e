// The built-in environments, their registry, and the helpers env authors share.
export { createEnv, defineEnv, ENV_DEFINITIONS, ENV_NAMES, envConfigHelp, envDefinition, envOptions, isEnvName, type EnvDefinition, type EnvName } from "./registry.js";
export { sokoban, type CompiledSokoban, type SokobanConfig, type SokobanState, type SokobanTask } from "./sokoban/index.js";
export { sokobanConfigSchema } from "./sokoban/config.js";
export { parseLevels, printLevel } from "./sokoban/levels.js";
export { frozenlake, type CompiledFrozenLake, type FrozenLakeConfig, type FrozenLakeState, type FrozenLakeTask } from "./frozenlake/index.js";
export { frozenLakeConfigSchema } from "./frozenlake/config.js";
export { NAMED_MAPS, parseMaps, printMap } from "./frozenlake/maps.js";
export { hanoi, type HanoiConfig, type HanoiState, type HanoiTask } from "./hanoi/index.js";
export { hanoiConfigSchema } from "./hanoi/config.js";
export { thinice, type CompiledThinIce, type ThinIceConfig, type ThinIceState, type ThinIceTask } from "./thinice/index.js";
export { thinIceConfigSchema } from "./thinice/config.js";
export { distinctTaskCount as thinIceDistinctTasks } from "./thinice/generator.js";
export { extractAnswer, normalizeAnswer, parseChoice, aliasTable, MAX_ANSWER_LENGTH } from "./shared/answer.js";
export { DIRECTIONS, directionsOfMask, parseDirection, type Direction } from "./shared/directions.js";
export { shortestPathAnswer, shortestPathValue } from "./shared/shortest-path-answer.js";
export { checkTurnsLeft } from "./shared/turns-left.js";
export { booleanOption, choiceOption, integerOption, numberOption, parseEnvOptions, type EnvOptionHelp } from "./shared/options.js";
export * from "./bfcl/index.js";
