// The budget trade-off of a thin ice task distribution, measured exactly by shared/budget-tradeoff.ts on each
// map's MDP (mdp.ts): for each of `tasks` distinct generated maps (seeds 0, 1, 2, ... until that many distinct
// maps), with L its optimal length (the short route's) and the study budgets T_m = ceil(m L) for m in 1.25,
// 1.5, 2, 3:
//   aware[j]        = success within T_j of the budget-aware oracle (its value at the start);
//   assumed[i][j]   = success within T_j of the oracle believing the budget is T_i (assumedBudgetPolicy),
//                     i over the four multiples, then the unlimited horizon (row 4);
//   bestBlind       = the row i with the highest mean over the four real budgets (the best budget-blind
//                     play; the first of those tied within 1e-9), and its loss aware[j] - assumed[i][j];
// each a mean over the tasks (every task weighs the same), in probability units (x100: points); and the table
// as text, in %.
// The requirements it serves: assumed[3][0] (3x play at 1.25x) and assumed[0][3] (1.25x play at 3x) each at
// least 20 points below aware (test/envs/thinice/tradeoff.test.ts).
import { budgetTurns, measureBudgetTradeoff, STUDY_MULTIPLES, UNLIMITED_LABEL } from "../shared/budget-tradeoff.js";
import { solveMdp } from "../shared/finite-mdp.js";
import type { ThinIceConfig } from "./config.js";
import { generateMap } from "./generator.js";
import { printMap, type ThinIceTask } from "./maps.js";
import { buildIceMdp } from "./mdp.js";
import { compileIce } from "./rules.js";

export const MULTIPLE_LABELS: readonly string[] = STUDY_MULTIPLES.map((multiple) => multiple.label);
/** Labels of the assumed budgets (rows of `assumed`). */
export const ASSUMED_LABELS: readonly string[] = [...MULTIPLE_LABELS, UNLIMITED_LABEL];

export interface TradeoffTable {
  readonly tasks: number;
  /** Seeds drawn to find them. */
  readonly seeds: number;
  readonly aware: readonly number[];
  readonly assumed: readonly (readonly number[])[];
  readonly bestBlind: number;
  readonly bestBlindLoss: readonly number[];
  /** How many tasks have each optimal length. */
  readonly lengths: ReadonlyMap<number, number>;
}

/** The study budgets of a task of optimal length `length`, in turns. */
export function studyBudgets(length: number): number[] {
  return STUDY_MULTIPLES.map((multiple) => budgetTurns(multiple, length));
}

/** Distinct generated maps from seeds 0, 1, 2, ... (at most 100 x `count` seeds). */
export function distinctMaps(config: ThinIceConfig, count: number): { maps: ThinIceTask[]; seeds: number } {
  const seen = new Set<string>();
  const maps: ThinIceTask[] = [];
  let seed = 0;
  for (; maps.length < count && seed < 100 * count; seed++) {
    const map = generateMap(config, seed);
    const text = printMap(map);
    if (seen.has(text)) continue;
    seen.add(text);
    maps.push(map);
  }
  return { maps, seeds: seed };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function measureTradeoff(config: ThinIceConfig, count: number): TradeoffTable {
  const { maps, seeds } = distinctMaps(config, count);
  const table = measureBudgetTradeoff(maps, (map) => {
    const ice = compileIce(map);
    const solution = solveMdp(buildIceMdp(ice, config.q));
    return { solution, start: ice.start, optimal: solution.remaining[ice.start]! };
  });
  return {
    tasks: table.tasks,
    seeds,
    aware: table.aware,
    assumed: [...table.assumed, table.unbounded],
    bestBlind: ASSUMED_LABELS.indexOf(table.bestBlind.label),
    bestBlindLoss: table.bestBlind.loss,
    lengths: new Map(table.lengths),
  };
}

/** The table as text: success in % per real budget, one row per policy, then the best blind one's loss. */
export function formatTradeoff(table: TradeoffTable): string {
  const percent = (value: number): string => (100 * value).toFixed(1).padStart(6);
  const header = `${"policy \\ real budget".padEnd(24)}${MULTIPLE_LABELS.map((label) => label.padStart(7)).join("")}   mean`;
  const row = (name: string, values: readonly number[]): string =>
    `${name.padEnd(24)}${values.map((value) => ` ${percent(value)}`).join("")} ${percent(mean(values))}`;
  const lines = [
    `${table.tasks} distinct maps (seeds 0-${table.seeds - 1}); success within ceil(m x optimal) turns, %`,
    header,
    row("budget-aware oracle", table.aware),
    ...table.assumed.map((values, index) => row(`believes ${ASSUMED_LABELS[index]}`, values)),
    row(`best blind loss (${ASSUMED_LABELS[table.bestBlind]})`, table.bestBlindLoss),
    `optimal lengths: ${[...table.lengths].map(([length, n]) => `${length}: ${n}`).join(", ")}`,
  ];
  return lines.join("\n");
}
