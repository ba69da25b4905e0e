// Vault rules. The locks open in order. Each turn the agent enters a digit or checks the current lock:
//   digit d   d is the lock's true code: the lock opens (the last one opens the vault: success, reward 1);
//             otherwise the alarm sounds: the episode ends in failure;
//   check     the lock's true code becomes known (an uncertain hint turns into a certain code); checking a
//             lock whose code is already known changes nothing (a wasted turn, not an error).
// True codes: a certain lock's code is its hint; an uncertain lock's code is its hint with probability
// `reliability`, else one of the 9 other digits uniformly, drawn for every lock at reset (drawCodes) from a
// stream seeded by the reset seed, and carried in the state. Actions have ids 0-9 (the digits) and 10 (check),
// as in the MDP (mdp.ts).
import type { Rng } from "../../core/rng.js";
import type { VaultTask } from "./tasks.js";

export const CHECK = "check";
export const CHECK_ACTION = 10;
/** Canonical action texts by id: "0".."9", then "check". */
export const ACTION_TEXTS: readonly string[] = Object.freeze([
  ...Array.from({ length: 10 }, (_, digit) => String(digit)),
  CHECK,
]);
export const REWARD_OPEN = 1;

/** Where an episode stands: the current lock (0-based), whether its code is known, and how it ended. */
export interface Position {
  readonly lock: number;
  /** The current lock's code is known: a certain hint, or a checked uncertain one. */
  readonly known: boolean;
  /** "open" once the last lock opened, "alarm" after a wrong code, null while the episode goes on. */
  readonly end: "open" | "alarm" | null;
}

/** What an action did, for the feedback line. */
export type Effect =
  | { readonly kind: "opened"; readonly lock: number; readonly code: number }
  | { readonly kind: "alarm"; readonly lock: number; readonly entered: number; readonly code: number }
  | { readonly kind: "checked"; readonly lock: number; readonly hint: number; readonly code: number }
  | { readonly kind: "wasted"; readonly lock: number };

/** The true code of every lock: certain hints as they are, uncertain ones right with probability `reliability`. */
export function drawCodes(task: VaultTask, reliability: number, rng: Rng): number[] {
  return task.hints.map((hint, lock) => {
    const right = rng.next() < reliability;
    const other = rng.int(9);
    if (!task.uncertain[lock] || right) return hint;
    return other < hint ? other : other + 1;
  });
}

/** The position before the first turn. */
export function startPosition(task: VaultTask): Position {
  return { lock: 0, known: !task.uncertain[0], end: null };
}

/** Play action id `action` (0-9 a digit, 10 check) in a live position. */
export function playAction(
  task: VaultTask,
  codes: readonly number[],
  position: Position,
  action: number,
): { readonly position: Position; readonly effect: Effect } {
  const { lock } = position;
  if (action === CHECK_ACTION) {
    if (position.known) return { position, effect: { kind: "wasted", lock } };
    return {
      position: { lock, known: true, end: null },
      effect: { kind: "checked", lock, hint: task.hints[lock]!, code: codes[lock]! },
    };
  }
  const code = codes[lock]!;
  if (action !== code)
    return {
      position: { lock, known: position.known, end: "alarm" },
      effect: { kind: "alarm", lock, entered: action, code },
    };
  const next = lock + 1;
  const done = next === task.hints.length;
  return {
    position: { lock: next, known: done || !task.uncertain[next], end: done ? "open" : null },
    effect: { kind: "opened", lock, code },
  };
}

/** The code the agent sees at the current lock: the true code once known, else the hint. */
export function shownCode(task: VaultTask, codes: readonly number[], position: Position): number {
  return position.known ? codes[position.lock]! : task.hints[position.lock]!;
}
