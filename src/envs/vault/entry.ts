// The package entry "budgetrl/envs/vault": the env with its config schema, the types of its tasks and states, the
// task text format, the count of distinct tasks and the budget tradeoff measurement (with its markdown table). The
// root ("budgetrl") holds the constructor and its config type.
export { vault, type CompiledVault, type VaultConfig, type VaultState, type VaultTask } from "./index.js";
export { vaultConfigSchema } from "./config.js";
export { distinctVaultTasks } from "./generator.js";
export { parseVaultTasks, printVaultTask } from "./tasks.js";
export { measureVaultTradeoff, vaultTradeoffMarkdown, type VaultTradeoff } from "./tradeoff.js";
