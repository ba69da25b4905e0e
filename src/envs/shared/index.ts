// What env authors share: answer extraction (<answer>...</answer>), direction parsing, the per-task cache of
// compiled tasks and their memo tables, the turn skeleton of one-reply text games, shortest-path oracle answers and
// the turns-left check. The option builders and the option
// validator are in core (core/options.ts): policies use them too.
export { aliasTable, extractAnswer, MAX_ANSWER_LENGTH, normalizeAnswer, parseChoice } from "./answer.js";
export { compiledTask, slotKey, slotView, type CompiledTask } from "./compiled-task.js";
export { DIRECTIONS, directionOfReply, directionsOfMask, parseDirection, type Direction } from "./directions.js";
export { shortestPathAnswer, shortestPathValue } from "./shortest-path-answer.js";
export { createTaskCache, type TaskCache } from "./task-cache.js";
export {
  liveActions,
  playTurn,
  startTurn,
  turnInfo,
  type PlayedAction,
  type StateEnd,
  type TextTurns,
} from "./text-turns.js";
export { checkTurnsLeft } from "./turns-left.js";
