// The budget trade-off of a set of tasks, measured exactly (budgetBlindness of finite-mdp.ts on each task's
// solved MDP), at budgets written as multiples of each task's optimal length m (vault, thinice):
//   T(c) = ceil(c x m) turns                                   (c = 1.25, 1.5, 2, 3: STUDY_MULTIPLES)
//   aware[j]       = mean over tasks of the budget-aware oracle's success within T(c_j)
//   assumed[i][j]  = mean success within T(c_j) of the oracle that believes the budget is T(c_i) (it acts at
//                    turn k as if T(c_i) - k turns were left): budget-blind play
//   unbounded[j]   = the same for the oracle that believes time is unlimited
//   bestBlind      = the believed budget (one of the c_i, or unlimited) with the highest success averaged over
//                    the budgets (the smallest of those tied within 1e-9), and its loss aware[j] - its success
//   lengths        = how many tasks have each optimal length
// Every task weighs the same, so the caller hands distinct tasks (means over distinct tasks); the env says how
// a task becomes its solved MDP, start state and optimal length. Probability units (x100: points).
import { budgetBlindness, type MdpSolution } from "./finite-mdp.js";

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

/** What the measurement needs of one task. */
export interface TradeoffTask {
  readonly solution: MdpSolution;
  readonly start: number;
  /** The optimal length m the budgets multiply. */
  readonly optimal: number;
}

export interface BudgetTradeoff {
  readonly tasks: number;
  readonly multiples: readonly string[];
  readonly aware: readonly number[];
  readonly assumed: readonly (readonly number[])[];
  readonly unbounded: readonly number[];
  /** The first (smallest) believed budget whose mean success is within TIE of the best, the others tied with
   * it, and its loss at every budget. */
  readonly bestBlind: { readonly label: string; readonly tied: readonly string[]; readonly loss: readonly number[] };
  /** Tasks per optimal length, ascending. */
  readonly lengths: readonly (readonly [length: number, tasks: number])[];
}

/** The label of the believed budget "time is unlimited" (after the multiples' own). */
export const UNLIMITED_LABEL = "unlimited";

/** Mean successes closer than this are a tie (rounding of equal rationals). */
const TIE = 1e-9;

/** Turns of a budget of `multiple` x `optimal`: ceil, in integers. */
export function budgetTurns(multiple: Multiple, optimal: number): number {
  return Math.ceil((multiple.numerator * optimal) / multiple.denominator);
}

function mean(rows: readonly (readonly number[])[], column: number): number {
  return rows.reduce((sum, row) => sum + row[column]!, 0) / rows.length;
}

function average(row: readonly number[]): number {
  return row.reduce((sum, value) => sum + value, 0) / row.length;
}

/** The believed budget with the best average success (the first within TIE of it), and its loss against aware. */
function bestBlindOf(
  labels: readonly string[],
  assumed: readonly (readonly number[])[],
  unbounded: readonly number[],
  aware: readonly number[],
): BudgetTradeoff["bestBlind"] {
  const candidates = [
    ...assumed.map((row, index) => ({ label: labels[index]!, row })),
    { label: UNLIMITED_LABEL, row: unbounded },
  ];
  const top = Math.max(...candidates.map((candidate) => average(candidate.row)));
  const tied = candidates.filter((candidate) => average(candidate.row) >= top - TIE);
  const best = tied[0]!;
  return {
    label: best.label,
    tied: tied.slice(1).map((candidate) => candidate.label),
    loss: aware.map((value, column) => value - best.row[column]!),
  };
}

/** The trade-off over `tasks` (distinct), each solved by `solve` when its turn comes. */
export function measureBudgetTradeoff<T>(
  tasks: readonly T[],
  solve: (task: T) => TradeoffTask,
  multiples: readonly Multiple[] = STUDY_MULTIPLES,
): BudgetTradeoff {
  const aware: number[][] = [];
  const assumed: number[][][] = multiples.map(() => []);
  const unbounded: number[][] = [];
  const lengths = new Map<number, number>();
  for (const task of tasks) {
    const { solution, start, optimal } = solve(task);
    lengths.set(optimal, (lengths.get(optimal) ?? 0) + 1);
    const blind = budgetBlindness(
      solution,
      start,
      multiples.map((multiple) => budgetTurns(multiple, optimal)),
    );
    aware.push([...blind.aware]);
    blind.assumed.forEach((row, believed) => assumed[believed]!.push([...row]));
    unbounded.push([...blind.unbounded]);
  }
  const columns = multiples.map((_, column) => column);
  const labels = multiples.map((multiple) => multiple.label);
  const awareMeans = columns.map((column) => mean(aware, column));
  const assumedMeans = assumed.map((rows) => columns.map((column) => mean(rows, column)));
  const unboundedMeans = columns.map((column) => mean(unbounded, column));
  return {
    tasks: tasks.length,
    multiples: labels,
    aware: awareMeans,
    assumed: assumedMeans,
    unbounded: unboundedMeans,
    bestBlind: bestBlindOf(labels, assumedMeans, unboundedMeans, awareMeans),
    lengths: [...lengths.entries()].sort((a, b) => a[0] - b[0]),
  };
}
