// A vault task as an explicit MDP over what the agent knows (shared/finite-mdp.ts), solved once per task.
// States: (lock i, view v) for i in 0..m-1 with id 11 i + v, where v = 0..9 is a known code (a certain hint,
// or a checked uncertain one) and v = 10 an unchecked uncertain hint; then success (11 m) and failure
// (11 m + 1). The agent never knows more than this: the codes of later locks are independent of what it saw.
// With hint h, reliability p and next(i) the state of lock i + 1 (success after the last lock):
//   known code v:       digit v -> next(i);  any other digit -> failure;  check -> itself (a wasted turn)
//   unchecked hint h:   check -> (i, h) with p, (i, c) with (1 - p) / 9 for each c != h
//                       digit h -> next(i) with p, failure with 1 - p
//                       digit c != h -> next(i) with (1 - p) / 9, failure otherwise
// Zero-probability outcomes are left out (p = 1). The optimal length is m (guess every lock); with s spare
// turns and u uncertain locks the best success is p^(u - min(s, u)) (check min(s, u) of them), for p >= 1/10.
import { buildMdp, FAILURE, LIVE, SUCCESS, type FiniteMdp, type Outcome } from "../shared/finite-mdp.js";
import { CHECK_ACTION, type Position } from "./rules.js";
import type { VaultTask } from "./tasks.js";

export const VIEWS = 11;
export const UNCHECKED = 10;

/** Id of the state the agent is in: a lock and what it shows, or an end. */
export function stateId(task: VaultTask, position: Position, shown: number): number {
  const locks = task.hints.length;
  if (position.end === "open") return VIEWS * locks;
  if (position.end === "alarm") return VIEWS * locks + 1;
  return VIEWS * position.lock + (position.known ? shown : UNCHECKED);
}

/** The state on arriving at `lock` (success past the last lock). */
function arrival(task: VaultTask, lock: number): number {
  if (lock === task.hints.length) return VIEWS * task.hints.length;
  return VIEWS * lock + (task.uncertain[lock] ? UNCHECKED : task.hints[lock]!);
}

function positive(outcomes: readonly Outcome[]): Outcome[] {
  return outcomes.filter(([, probability]) => probability > 0);
}

function knownOutcomes(task: VaultTask, lock: number, code: number, action: number): Outcome[] {
  const failure = VIEWS * task.hints.length + 1;
  if (action === CHECK_ACTION) return [[VIEWS * lock + code, 1]];
  return [[action === code ? arrival(task, lock + 1) : failure, 1]];
}

function uncheckedOutcomes(task: VaultTask, lock: number, reliability: number, action: number): Outcome[] {
  const failure = VIEWS * task.hints.length + 1;
  const hint = task.hints[lock]!;
  const other = (1 - reliability) / 9;
  if (action === CHECK_ACTION)
    return positive(
      Array.from({ length: 10 }, (_, code): Outcome => [VIEWS * lock + code, code === hint ? reliability : other]),
    );
  const right = action === hint ? reliability : other;
  return positive([
    [arrival(task, lock + 1), right],
    [failure, 1 - right],
  ]);
}

/** The MDP of a task whose uncertain hints are right with probability `reliability`. */
export function buildVaultMdp(task: VaultTask, reliability: number): FiniteMdp {
  const locks = task.hints.length;
  const end = (state: number): number =>
    state === VIEWS * locks ? SUCCESS : state === VIEWS * locks + 1 ? FAILURE : LIVE;
  return buildMdp(VIEWS * locks + 2, VIEWS, end, (state, action) => {
    const lock = Math.floor(state / VIEWS);
    const view = state % VIEWS;
    return view === UNCHECKED
      ? uncheckedOutcomes(task, lock, reliability, action)
      : knownOutcomes(task, lock, view, action);
  });
}

/** The state before the first turn. */
export function startState(task: VaultTask): number {
  return arrival(task, 0);
}
