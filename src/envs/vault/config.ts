// Vault options: one zod schema, a description and a default per field, and the cross-field rules the schema
// cannot say (minLocks <= maxLocks, minExtra <= maxExtra), checked when the env is built.
// The defaults are chosen so that the turn budget decides the play (see index.ts and docs/envs.md): a task of
// m locks has ceil(tightBudget x m) - m + k uncertain locks (k from minExtra to maxExtra, at most m), one or two
// more than a budget of 1.25x the optimal length leaves spare turns for, and hints are right 60% of the time.
import { z } from "zod";
import { ConfigError } from "../../core/errors.js";
import { integerOption, numberOption } from "../../core/options.js";
import { MAX_LOCKS } from "./tasks.js";

export const vaultConfigSchema = z.object({
  minLocks: integerOption(
    1,
    MAX_LOCKS,
    2,
    "Fewest locks of a generated vault (the optimal length is the number of locks).",
  ),
  maxLocks: integerOption(
    1,
    MAX_LOCKS,
    12,
    "Most locks of a generated vault; the number is drawn uniformly from minLocks..maxLocks.",
  ),
  reliability: numberOption(
    0.2,
    1,
    0.6,
    'Probability that an uncertain hint ("hint 7?") is the code; otherwise the code is one of the 9 other digits, uniformly.',
  ),
  tightBudget: numberOption(
    1,
    10,
    1.25,
    "Budget, as a multiple of the optimal length, whose spare turns ceil(tightBudget x locks) - locks set the number of uncertain locks.",
  ),
  minExtra: integerOption(
    0,
    MAX_LOCKS,
    1,
    "Uncertain locks beyond those spare turns: at least this many (a generated task has at most every lock uncertain).",
  ),
  maxExtra: integerOption(
    0,
    MAX_LOCKS,
    2,
    "Uncertain locks beyond those spare turns: at most this many; drawn uniformly from minExtra..maxExtra per task.",
  ),
  referenceFactor: integerOption(
    1,
    1000,
    3,
    "The reference budget (100%) is this many times the optimal length (the number of locks).",
  ),
});

export type VaultConfig = z.output<typeof vaultConfigSchema>;

/** Throws a ConfigError naming the field when a range is upside down. */
export function checkVaultConfig(config: VaultConfig): VaultConfig {
  if (config.minLocks > config.maxLocks)
    throw new ConfigError(
      "vault.minLocks",
      `is ${config.minLocks}, above maxLocks (${config.maxLocks})`,
      "minLocks must be at most maxLocks",
    );
  if (config.minExtra > config.maxExtra)
    throw new ConfigError(
      "vault.minExtra",
      `is ${config.minExtra}, above maxExtra (${config.maxExtra})`,
      "minExtra must be at most maxExtra",
    );
  return config;
}
