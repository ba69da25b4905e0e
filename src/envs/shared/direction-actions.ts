// The action space of the grid games whose every move is a direction (sokoban, thin ice, frozenlake): in a live
// state the four directions, in an ended one none; a state's key is the turn skeleton's; a reply's action is the
// direction it names (null when it names none).
import type { ActionSpace } from "../../core/action-space.js";
import { DIRECTIONS, directionOfReply } from "./directions.js";
import { liveActions, type TextTurns } from "./text-turns.js";

export function directionActions<TState>(turns: TextTurns<TState>): ActionSpace<TState> {
  return {
    valid: liveActions(turns, DIRECTIONS),
    stateKey: turns.stateKey,
    parse: (_state, action) => directionOfReply(action),
  };
}
