// Seeded vault tasks. From one stream seeded by the task seed:
//   m = the number of locks, uniform in minLocks..maxLocks            (the optimal length is m)
//   k uniform in minExtra..maxExtra;  u = min(m, spare(m) + k) uncertain locks, placed uniformly at random,
//     where spare(m) = ceil(tightBudget x m) - m is the spare turns of a budget of tightBudget x the optimum
//   every hint a uniform digit.
// With the defaults (1.25, 1..2) a budget of 1.25x can check all but one or two uncertain hints, 2x all of them.
// distinctVaultTasks counts the tasks the generator can draw: sum over m of 10^m x sum over the possible u of
// C(m, u) (exact, as a BigInt: 12 locks already give ~10^15). distinctVaultStructures counts their structures (the
// hint digits left out): sum over m of sum over the possible u of C(m, u), 3,054 by default; a 2-lock vault has
// exactly one (both hints uncertain).
import { createRng, type Rng } from "../../core/rng.js";
import type { VaultConfig } from "./config.js";
import { vaultTask, type VaultTask } from "./tasks.js";

/** Spare turns of a budget of `multiple` x `optimal` turns: ceil(multiple x optimal) - optimal (never below 0). */
export function spareTurns(multiple: number, optimal: number): number {
  // The epsilon keeps products such as 1.1 x 10 = 11.000000000000002 at 11.
  return Math.max(0, Math.ceil(multiple * optimal - 1e-9) - optimal);
}

type GeneratorOptions = Pick<VaultConfig, "minLocks" | "maxLocks" | "tightBudget" | "minExtra" | "maxExtra">;

/** The uncertain-lock counts a task of `locks` locks can have, ascending and distinct. */
export function uncertainCounts(config: GeneratorOptions, locks: number): number[] {
  const counts = new Set<number>();
  for (let extra = config.minExtra; extra <= config.maxExtra; extra++)
    counts.add(Math.min(locks, spareTurns(config.tightBudget, locks) + extra));
  return [...counts].sort((a, b) => a - b);
}

function between(rng: Rng, low: number, high: number): number {
  return low + rng.int(high - low + 1);
}

/** `count` of the indices 0..n-1, chosen uniformly (a partial Fisher-Yates shuffle). */
function chooseIndices(rng: Rng, n: number, count: number): Set<number> {
  const order = Array.from({ length: n }, (_, index) => index);
  for (let index = 0; index < count; index++) {
    const other = index + rng.int(n - index);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return new Set(order.slice(0, count));
}

export function generateVault(config: GeneratorOptions, seed: number): VaultTask {
  const rng = createRng(seed);
  const locks = between(rng, config.minLocks, config.maxLocks);
  const extra = between(rng, config.minExtra, config.maxExtra);
  const uncertainLocks = chooseIndices(rng, locks, Math.min(locks, spareTurns(config.tightBudget, locks) + extra));
  const hints = Array.from({ length: locks }, () => rng.int(10));
  return vaultTask(
    hints,
    hints.map((_, lock) => uncertainLocks.has(lock)),
    "generated task",
  );
}

function binomial(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 1; i <= k; i++) result = (result * BigInt(n - k + i)) / BigInt(i);
  return result;
}

/** How many ways a vault of `locks` locks can place its uncertain hints. */
function placements(config: GeneratorOptions, locks: number): bigint {
  return uncertainCounts(config, locks).reduce((sum, count) => sum + binomial(locks, count), 0n);
}

/** The exact number of distinct tasks the generator can draw with this config. */
export function distinctVaultTasks(config: GeneratorOptions): bigint {
  let total = 0n;
  for (let locks = config.minLocks; locks <= config.maxLocks; locks++)
    total += 10n ** BigInt(locks) * placements(config, locks);
  return total;
}

/** The exact number of distinct structures (lock counts and uncertain placements) the generator can draw. */
export function distinctVaultStructures(config: GeneratorOptions): number {
  let total = 0n;
  for (let locks = config.minLocks; locks <= config.maxLocks; locks++) total += placements(config, locks);
  return Number(total);
}
