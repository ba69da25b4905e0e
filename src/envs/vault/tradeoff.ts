// The budget trade-off of a set of vault tasks, measured exactly by shared/budget-tradeoff.ts (aware success,
// each believed budget's success, the best blind play's loss at 1.25x, 1.5x, 2x and 3x each task's optimal
// length, the number of locks), on each task's MDP (mdp.ts, oracle.ts), and its markdown table for
// docs/envs.md. Tasks are deduplicated by content first (means over distinct tasks). With u uncertain locks
// and s(c) spare turns, aware = p^(u - min(s, u)); believing more time than there is checks hints it has no
// turns for and fails outright, believing less guesses hints it had time to check.
import {
  measureBudgetTradeoff,
  STUDY_MULTIPLES,
  type BudgetTradeoff,
  type Multiple,
} from "../shared/budget-tradeoff.js";
import { startState } from "./mdp.js";
import { buildVaultOracle } from "./oracle.js";
import { printVaultTask, type VaultTask } from "./tasks.js";

export type VaultTradeoff = BudgetTradeoff;

function distinct(tasks: readonly VaultTask[]): VaultTask[] {
  const byText = new Map<string, VaultTask>();
  for (const task of tasks) byText.set(printVaultTask(task), task);
  return [...byText.values()];
}

export function measureVaultTradeoff(
  tasks: readonly VaultTask[],
  reliability: number,
  multiples: readonly Multiple[] = STUDY_MULTIPLES,
): VaultTradeoff {
  const solve = (task: VaultTask) => ({
    solution: buildVaultOracle(task, reliability).solution,
    start: startState(task),
    optimal: task.hints.length,
  });
  return measureBudgetTradeoff(distinct(tasks), solve, multiples);
}

/** The table as markdown: aware success, each believed budget's success, the best blind play's loss. */
export function vaultTradeoffMarkdown(table: VaultTradeoff): string {
  const cells = (row: readonly number[]): string => row.map((value) => value.toFixed(3)).join(" | ");
  return [
    `| policy (${table.tasks} distinct tasks) | ${table.multiples.join(" | ")} |`,
    `|---|${table.multiples.map(() => "---").join("|")}|`,
    `| budget-aware oracle | ${cells(table.aware)} |`,
    ...table.assumed.map((row, index) => `| oracle believing ${table.multiples[index]} | ${cells(row)} |`),
    `| oracle believing unlimited | ${cells(table.unbounded)} |`,
    `| loss of the best blind (believing ${table.bestBlind.label}${table.bestBlind.tied.length > 0 ? `; tied: ${table.bestBlind.tied.join(", ")}` : ""}) | ${cells(table.bestBlind.loss)} |`,
  ].join("\n");
}
