// The built-in environments, as the package root exports them: the registry (create an env by name, its options and
// help, defineEnv for an env of one's own) and each env's constructor with the type of its options. Everything else
// an env offers (config schema, task and state types, task file formats, tradeoff measurements, BFCL's data) is in
// its own entry, "budgetrl/envs/<name>" (<name>/entry.ts). The helpers the envs share (envs/shared/) and BFCL's
// backends, checkers and call syntax are budgetrl's own and not exported.
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
export { sokoban, type SokobanConfig } from "./sokoban/index.js";
export { frozenlake, type FrozenLakeConfig } from "./frozenlake/index.js";
export { hanoi, type HanoiConfig } from "./hanoi/index.js";
export { vault, type VaultConfig } from "./vault/index.js";
export { thinice, type ThinIceConfig } from "./thinice/index.js";
export { bfcl, type BfclEnv } from "./bfcl/env.js";
export type { BfclOptions } from "./bfcl/config.js";
