// What the frozenlake oracle answers, at any horizon, from one map's tables:
//   dry ice:      the shortest-path answer (shared/shortest-path-answer.ts): the same moves at every horizon,
//                 value 1 within t turns when the goal is at most t moves away;
//   slippery ice: unlimited horizon -> value iteration's success probability (oracle.ts) and the fastest
//                 value-optimal actions (fastest.ts);
//                 t turns left        -> the finite-horizon table (horizon.ts), grown on demand to the
//                 largest t asked; past its cap, the unlimited-horizon answer.
// The fastest sets and the table are computed on first use, once per (map, slipperiness).
import type { OracleAnswer } from "../../core/oracle.js";
import { directionsOfMask } from "../shared/directions.js";
import { shortestPathAnswer, shortestPathValue } from "../shared/shortest-path-answer.js";
import { checkTurnsLeft } from "../shared/turns-left.js";
import { fastestActions, type FastestActions } from "./fastest.js";
import { createHorizonTable, type HorizonTable } from "./horizon.js";
import type { FrozenLakeOracle } from "./oracle.js";
import type { Lake } from "./rules.js";

export interface FrozenLakeAnswers {
  /** The oracle's answer in `cell` within `turnsLeft` turns (undefined or Infinity: unlimited horizon). */
  answer(cell: number, turnsLeft?: number): OracleAnswer;
  /** Success probability within `turnsLeft` turns under optimal play (the budget-aware progress signal). */
  value(cell: number, turnsLeft: number): number;
}

function lazy<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

export function createAnswers(lake: Lake, slippery: boolean, oracle: FrozenLakeOracle): FrozenLakeAnswers {
  if (!slippery) {
    return {
      answer: (cell, turnsLeft) =>
        shortestPathAnswer(oracle.shortestPathActions[cell]!, oracle.remaining[cell]!, turnsLeft),
      value: (cell, turnsLeft) => shortestPathValue(oracle.remaining[cell]!, turnsLeft),
    };
  }
  const fastest: () => FastestActions = lazy(() => fastestActions(lake, oracle.value, true));
  const table: () => HorizonTable = lazy(() => createHorizonTable(lake, true, () => fastest().masks));
  const unlimited = (cell: number): OracleAnswer => ({
    optimal: directionsOfMask(fastest().masks[cell]!),
    remaining: oracle.remaining[cell]!,
    value: oracle.value[cell]!,
  });
  return {
    answer(cell, turnsLeft) {
      const horizon = checkTurnsLeft(turnsLeft);
      if (horizon === Infinity) return unlimited(cell);
      const layer = table().layer(horizon);
      if (layer === null) return unlimited(cell);
      return {
        optimal: directionsOfMask(layer.masks[cell]!),
        remaining: oracle.remaining[cell]!,
        value: layer.values[cell]!,
      };
    },
    value(cell, turnsLeft) {
      const horizon = checkTurnsLeft(turnsLeft);
      const layer = horizon === Infinity ? null : table().layer(horizon);
      return layer === null ? oracle.value[cell]! : layer.values[cell]!;
    },
  };
}
