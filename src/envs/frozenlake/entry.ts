// The package entry "budgetrl/envs/frozenlake": the env with its config schema, the types of its tasks and states,
// and the maps (Gymnasium's named maps, the map text format). The root ("budgetrl") holds the constructor and its
// config type.
export {
  frozenlake,
  type CompiledFrozenLake,
  type FrozenLakeConfig,
  type FrozenLakeState,
  type FrozenLakeTask,
} from "./index.js";
export { frozenLakeConfigSchema } from "./config.js";
export { NAMED_MAPS, parseMaps, printMap } from "./maps.js";
