// The sokoban oracle: exact BFS over the whole reachable state graph of a task, computed once per task.
//   1. forward BFS from the start over (player cell, box cells) with the real move rules, recording each
//      state's four successors (solved states are terminal and not expanded);
//   2. reverse BFS from every solved state over the recorded edges: distance = optimal number of turns;
//   3. per state, the mask of directions whose successor is one step closer (all ties).
// Lookups are then O(k) for k boxes: a state's id is its player's floor index plus F times the
// combinatorial rank of its box floor indices (F = number of non-wall cells), and a Map takes ids to nodes.
// States from which no solved state is reachable (deadlocks) have distance Infinity and no optimal action.
// The state count is capped (`maxStates`): past it, tryBuildOracle returns null and buildOracle throws a
// DataError naming the option.
import { DataError } from "../../core/errors.js";
import { directionsOfMask } from "../shared/directions.js";
import { applyMove, BLOCKED, countOnGoal, type Board } from "./rules.js";

export interface SokobanOracle {
  readonly nodeCount: number;
  readonly startNode: number;
  /** Optimal turns from the start (Infinity for an unsolvable level). */
  readonly startDistance: number;
  /** Largest finite distance of any reachable state. */
  readonly maxDistance: number;
  /** Unique id of a state within its task (the canonical state number). */
  stateId(player: number, boxes: readonly number[]): number;
  /** Graph node of a state id, or -1 if the state is not reachable from the start. */
  nodeOfId(id: number): number;
  distance(node: number): number;
  optimal(node: number): readonly string[];
}

/** Ranking of (player, boxes) states as integers: player floor index + F * rank of the box set. */
export function createStateIdentifier(board: Board): (player: number, boxes: readonly number[]) => number {
  const floors = board.floorCells.length;
  const k = board.boxCount;
  const binomial = new Float64Array((floors + 1) * (k + 1));
  for (let n = 0; n <= floors; n++) {
    binomial[n * (k + 1)] = 1;
    for (let j = 1; j <= Math.min(n, k); j++) {
      binomial[n * (k + 1) + j] = binomial[(n - 1) * (k + 1) + j - 1]! + binomial[(n - 1) * (k + 1) + j]!;
    }
  }
  if (floors * binomial[floors * (k + 1) + k]! > Number.MAX_SAFE_INTEGER) {
    throw new DataError(
      `sokoban: a level with ${floors} floor cells and ${k} boxes has too many states to index`,
      "use fewer boxes or a smaller level",
    );
  }
  const floorIndex = board.floorIndex;
  return (player, boxes) => {
    let rank = 0;
    for (let i = 0; i < boxes.length; i++) rank += binomial[floorIndex[boxes[i]!]! * (k + 1) + i + 1]!;
    return floorIndex[player]! + floors * rank;
  };
}

interface Graph {
  readonly idToNode: Map<number, number>;
  readonly successors: Int32Array;
  readonly solved: Uint8Array;
}

/** The reachable state graph, or null when it has more than `maxStates` states. */
function exploreForward(
  board: Board,
  stateId: (player: number, boxes: readonly number[]) => number,
  maxStates: number,
): Graph | null {
  const idToNode = new Map<number, number>();
  const players: number[] = [board.startPlayer];
  const boxSets: (readonly number[])[] = [board.startBoxes];
  const successors: number[] = [];
  const solved: number[] = [];
  idToNode.set(stateId(board.startPlayer, board.startBoxes), 0);
  for (let node = 0; node < players.length; node++) {
    const player = players[node]!;
    const boxes = boxSets[node]!;
    const isSolved = countOnGoal(board, boxes) === board.boxCount;
    solved.push(isSolved ? 1 : 0);
    for (let direction = 0; direction < 4; direction++) {
      if (isSolved) {
        successors.push(node);
        continue;
      }
      const move = applyMove(board, player, boxes, direction);
      if (move.kind === BLOCKED) {
        successors.push(node);
        continue;
      }
      const id = stateId(move.player, move.boxes);
      let next = idToNode.get(id);
      if (next === undefined) {
        next = players.length;
        if (next >= maxStates) return null;
        idToNode.set(id, next);
        players.push(move.player);
        boxSets.push(move.boxes);
      }
      successors.push(next);
    }
  }
  return { idToNode, successors: Int32Array.from(successors), solved: Uint8Array.from(solved) };
}

/** Distances to the nearest solved state by BFS over reversed edges; -1 where none is reachable. */
function distancesToSolved(graph: Graph): Int32Array {
  const count = graph.solved.length;
  const offsets = new Int32Array(count + 1);
  const { successors } = graph;
  for (let edge = 0; edge < successors.length; edge++) {
    const target = successors[edge]!;
    if (target !== edge >> 2) offsets[target + 1]! += 1;
  }
  for (let node = 0; node < count; node++) offsets[node + 1]! += offsets[node]!;
  const predecessors = new Int32Array(offsets[count]!);
  const fill = offsets.slice(0, count);
  for (let edge = 0; edge < successors.length; edge++) {
    const target = successors[edge]!;
    if (target !== edge >> 2) predecessors[fill[target]!++] = edge >> 2;
  }
  const distance = new Int32Array(count).fill(-1);
  const queue = new Int32Array(count);
  let tail = 0;
  for (let node = 0; node < count; node++) {
    if (graph.solved[node] === 1) {
      distance[node] = 0;
      queue[tail++] = node;
    }
  }
  for (let head = 0; head < tail; head++) {
    const node = queue[head]!;
    for (let at = offsets[node]!; at < offsets[node + 1]!; at++) {
      const previous = predecessors[at]!;
      if (distance[previous] === -1) {
        distance[previous] = distance[node]! + 1;
        queue[tail++] = previous;
      }
    }
  }
  return distance;
}

function optimalMasks(successors: Int32Array, distance: Int32Array): Uint8Array {
  const masks = new Uint8Array(distance.length);
  for (let node = 0; node < distance.length; node++) {
    const here = distance[node]!;
    if (here <= 0) continue;
    for (let direction = 0; direction < 4; direction++) {
      const next = successors[node * 4 + direction]!;
      if (next !== node && distance[next] === here - 1) masks[node]! |= 1 << direction;
    }
  }
  return masks;
}

/** The oracle of a level; throws DataError (naming sokoban.maxStates) past `maxStates` states. */
export function buildOracle(board: Board, maxStates: number): SokobanOracle {
  const oracle = tryBuildOracle(board, maxStates);
  if (oracle === null) {
    throw new DataError(
      `sokoban: the level has more than ${maxStates} reachable states`,
      "raise the sokoban.maxStates option, or use a smaller level or fewer boxes",
    );
  }
  return oracle;
}

/** The oracle of a level, or null when its state graph has more than `maxStates` states. */
export function tryBuildOracle(board: Board, maxStates: number): SokobanOracle | null {
  const stateId = createStateIdentifier(board);
  const graph = exploreForward(board, stateId, maxStates);
  if (graph === null) return null;
  const distance = distancesToSolved(graph);
  const masks = optimalMasks(graph.successors, distance);
  let maxDistance = 0;
  for (const value of distance) if (value > maxDistance) maxDistance = value;
  const toDistance = (node: number): number => (distance[node]! < 0 ? Infinity : distance[node]!);
  return {
    nodeCount: distance.length,
    startNode: 0,
    startDistance: toDistance(0),
    maxDistance,
    stateId,
    nodeOfId: (id) => graph.idToNode.get(id) ?? -1,
    distance: toDistance,
    optimal: (node) => directionsOfMask(masks[node]!),
  };
}
