// What env authors share: answer extraction (<answer>...</answer>), direction parsing, the per-task cache of
// compiled tasks, shortest-path oracle answers and the turns-left check. The option builders and the option
// validator are in core (core/options.ts): policies use them too.
export { aliasTable, extractAnswer, MAX_ANSWER_LENGTH, normalizeAnswer, parseChoice } from "./answer.js";
export { DIRECTIONS, directionOfReply, directionsOfMask, parseDirection, type Direction } from "./directions.js";
export { shortestPathAnswer, shortestPathValue } from "./shortest-path-answer.js";
export { createTaskCache, type TaskCache } from "./task-cache.js";
export { checkTurnsLeft } from "./turns-left.js";
