// The budget trade-off of a set of vault tasks, measured exactly (shared/finite-mdp.ts's budgetBlindness on
// each task's MDP), at budgets written as multiples of each task's optimal length m:
//   T(c) = ceil(c x m) turns                                   (c = 1.25, 1.5, 2, 3 by default)
//   aware[j]       = mean over tasks of the budget-aware oracle's success within T(c_j)
//   assumed[i][j]  = mean success within T(c_j) of the oracle that believes the budget is T(c_i) (it acts at
//                    turn k as if T(c_i) - k turns were left): budget-blind play
//   unbounded[j]   = the same for the oracle that believes time is unlimited
//   bestBlind      = the believed budget (one of the c_i, or unlimited) with the highest success averaged over
//                    the budgets (the smallest of those tied within 1e-9), and its loss aware[j] - its success
// Tasks are deduplicated by content first (means over distinct tasks). With u uncertain locks and s(c) spare
// turns, aware = p^(u - min(s, u)); believing more time than there is checks hints it has no turns for and
// fails outright, believing less guesses hints it had time to check.
import { budgetBlindness } from "../shared/finite-mdp.js";
import { startState } from "./mdp.js";
import { buildVaultOracle } from "./oracle.js";
import { printVaultTask, type VaultTask } from "./tasks.js";

/** A budget as a multiple of the optimal length, as an exact fraction. */
export interface Multiple {
  readonly label: string;
  readonly numerator: number;
  readonly denominator: number;
}

export const STUDY_MULTIPLES: readonly Multiple[] = [
  { label: "1.25x", numerator: 5, denominator: 4 },
  { label: "1.5x", numerator: 3, denominator: 2 },
  { label: "2x", numerator: 2, denominator: 1 },
  { label: "3x", numerator: 3, denominator: 1 },
];

export interface VaultTradeoff {
  readonly tasks: number;
  readonly multiples: readonly string[];
  readonly aware: readonly number[];
  readonly assumed: readonly (readonly number[])[];
  readonly unbounded: readonly number[];
  /** The first (smallest) believed budget whose mean success is within TIE of the best, the others tied with
   * it, and its loss at every budget. */
  readonly bestBlind: { readonly label: string; readonly tied: readonly string[]; readonly loss: readonly number[] };
  /** Distinct tasks per optimal length (number of locks), ascending. */
  readonly lengths: readonly (readonly [length: number, tasks: number])[];
}

/** Mean successes closer than this are a tie (rounding of equal rationals). */
const TIE = 1e-9;

/** Turns of a budget of `multiple` x `optimal`: ceil, in integers. */
export function budgetTurns(multiple: Multiple, optimal: number): number {
  return Math.ceil((multiple.numerator * optimal) / multiple.denominator);
}

function mean(rows: readonly (readonly number[])[], column: number): number {
  return rows.reduce((sum, row) => sum + row[column]!, 0) / rows.length;
}

function distinct(tasks: readonly VaultTask[]): VaultTask[] {
  const byText = new Map<string, VaultTask>();
  for (const task of tasks) byText.set(printVaultTask(task), task);
  return [...byText.values()];
}

export function measureVaultTradeoff(tasks: readonly VaultTask[], reliability: number, multiples: readonly Multiple[] = STUDY_MULTIPLES): VaultTradeoff {
  const unique = distinct(tasks);
  const budgets = multiples.length;
  const aware: number[][] = [];
  const assumed: number[][][] = Array.from({ length: budgets }, () => []);
  const unbounded: number[][] = [];
  const lengths = new Map<number, number>();
  for (const task of unique) {
    const locks = task.hints.length;
    lengths.set(locks, (lengths.get(locks) ?? 0) + 1);
    const turns = multiples.map((multiple) => budgetTurns(multiple, locks));
    const blind = budgetBlindness(buildVaultOracle(task, reliability).solution, startState(task), turns);
    aware.push([...blind.aware]);
    blind.assumed.forEach((row, believed) => assumed[believed]!.push([...row]));
    unbounded.push([...blind.unbounded]);
  }
  const columns = multiples.map((_, column) => column);
  const awareMeans = columns.map((column) => mean(aware, column));
  const assumedMeans = assumed.map((rows) => columns.map((column) => mean(rows, column)));
  const unboundedMeans = columns.map((column) => mean(unbounded, column));
  const candidates = [...assumedMeans.map((row, index) => ({ label: multiples[index]!.label, row })), { label: "unlimited", row: unboundedMeans }];
  const average = (row: readonly number[]): number => row.reduce((sum, value) => sum + value, 0) / row.length;
  const top = Math.max(...candidates.map((candidate) => average(candidate.row)));
  const tied = candidates.filter((candidate) => average(candidate.row) >= top - TIE);
  const best = tied[0]!;
  return {
    tasks: unique.length,
    multiples: multiples.map((multiple) => multiple.label),
    aware: awareMeans,
    assumed: assumedMeans,
    unbounded: unboundedMeans,
    bestBlind: { label: best.label, tied: tied.slice(1).map((candidate) => candidate.label), loss: columns.map((column) => awareMeans[column]! - best.row[column]!) },
    lengths: [...lengths.entries()].sort((a, b) => a[0] - b[0]),
  };
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
