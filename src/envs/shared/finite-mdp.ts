// An explicit finite MDP whose episodes end in success or failure states, built once per task by envs whose
// transitions they can list (thin ice, vault), and its exact solution at every horizon:
//   V_0(s) = 1 on success, else 0;  S_0 = 0                    (V_t: success within t turns)
//   Q_t(s,a) = sum_o p(o) V_{t-1}(o);  V_t(s) = max_a Q_t(s,a) over the actions available in s
//   ties_t(s) = { a : Q_t(s,a) >= V_t(s) (1 - 1e-10) }
//   W_t(s,a) = sum_o p(o) S_{t-1}(o);  S_t(s) = V_t(s) + min_{a in ties_t(s)} W_t(s,a)   (E[tau 1{tau <= t}])
//   optimal_t(s) = { a in ties_t(s) : W_t(s,a) <= min W_t (1 + 1e-10) }: success within t first, then the
//                  fewest expected turns; when V_t(s) = 0, the unlimited-horizon set (below), as every env does.
// The unlimited horizon is the fixed point of the same recursion (V_inf, S_inf and their sets), reached when a
// layer equals the one before bit for bit; an MDP whose layers never settle within MAX_LAYERS (or the table
// cap) answers its largest layer for longer horizons, which tests of such an MDP would show.
// remaining(s) = the fewest turns after which success has positive probability (a search over outcomes of
// positive probability), Infinity when none: it does not depend on the horizon.
// Why the same tolerances as frozenlake's horizon table (src/envs/frozenlake/horizon.ts): every quantity is a
// sum of non-negative terms, so two computations of one rational differ by ~1e-15 t relatively, far below 1e-10.
// The layers are computed on first use and kept (values, S for the newest layer, masks): 12 bytes per state
// and layer. Actions are ids 0..actions-1 (at most 32), so a set is a bit mask.
import { BudgetrlError } from "../../core/errors.js";

export const MDP_TIE_TOLERANCE = 1e-10;
export const MAX_MDP_ACTIONS = 32;
export const MAX_LAYERS = 100_000;
export const MAX_TABLE_ENTRIES = 1 << 24;

/** What a state is: live (the episode goes on), or an end. */
export const LIVE = 0;
export const SUCCESS = 1;
export const FAILURE = 2;

/** An explicit MDP: outcomes of (state, action) pairs in compressed rows. */
export interface FiniteMdp {
  readonly states: number;
  readonly actions: number;
  /** LIVE, SUCCESS or FAILURE per state. */
  readonly ends: Uint8Array;
  /** Outcomes of pair p = state * actions + action are next[i], prob[i] for i in [start[p], start[p + 1]); an
   * empty range means the action is not available in the state. */
  readonly start: Uint32Array;
  readonly next: Uint32Array;
  readonly prob: Float64Array;
}

/** One outcome of an action: the next state and its probability. */
export type Outcome = readonly [next: number, probability: number];

/** Build an MDP from its ends and an outcome list per (live state, action); null: not available there. */
export function buildMdp(
  states: number,
  actions: number,
  end: (state: number) => number,
  outcomes: (state: number, action: number) => readonly Outcome[] | null,
): FiniteMdp {
  if (actions < 1 || actions > MAX_MDP_ACTIONS)
    throw new BudgetrlError("mdp:actions", `an MDP takes 1 to ${MAX_MDP_ACTIONS} actions, got ${actions}`);
  const ends = new Uint8Array(states);
  const start = new Uint32Array(states * actions + 1);
  const next: number[] = [];
  const prob: number[] = [];
  for (let state = 0; state < states; state++) {
    ends[state] = end(state);
    for (let action = 0; action < actions; action++) {
      const pair = state * actions + action;
      start[pair] = next.length;
      const list = ends[state] === LIVE ? outcomes(state, action) : null;
      for (const [to, probability] of list ?? []) {
        if (!(to >= 0 && to < states && probability > 0))
          throw new BudgetrlError(
            "mdp:outcome",
            `outcome (${to}, ${probability}) of state ${state}, action ${action} is not a state with a positive probability`,
          );
        next.push(to);
        prob.push(probability);
      }
    }
  }
  start[states * actions] = next.length;
  return { states, actions, ends, start, next: Uint32Array.from(next), prob: Float64Array.from(prob) };
}

/** Expected value of `table` after `action` in `state` (NaN when the action is not available). */
export function expectedAfter(mdp: FiniteMdp, table: Float64Array, state: number, action: number): number {
  const pair = state * mdp.actions + action;
  const from = mdp.start[pair]!;
  const to = mdp.start[pair + 1]!;
  if (from === to) return NaN;
  let sum = 0;
  for (let index = from; index < to; index++) sum += mdp.prob[index]! * table[mdp.next[index]!]!;
  return sum;
}

/** The fewest turns to a success state with positive probability, per state (Infinity: never). */
export function fewestTurns(mdp: FiniteMdp): Float64Array {
  const turns = new Float64Array(mdp.states).fill(Infinity);
  const incoming: number[][] = Array.from({ length: mdp.states }, () => []);
  for (let state = 0; state < mdp.states; state++) {
    if (mdp.ends[state] !== LIVE) continue;
    for (let index = mdp.start[state * mdp.actions]!; index < mdp.start[(state + 1) * mdp.actions]!; index++)
      incoming[mdp.next[index]!]!.push(state);
  }
  const queue: number[] = [];
  for (let state = 0; state < mdp.states; state++) {
    if (mdp.ends[state] === SUCCESS) {
      turns[state] = 0;
      queue.push(state);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const previous of incoming[state]!) {
      if (turns[previous] !== Infinity) continue;
      turns[previous] = turns[state]! + 1;
      queue.push(previous);
    }
  }
  return turns;
}

/** One horizon's answers: V_t per state and the optimal action mask (the unlimited set where V_t = 0). */
export interface MdpLayer {
  readonly values: Float64Array;
  readonly masks: Uint32Array;
}

interface FullLayer extends MdpLayer {
  /** S_t per state. */
  readonly turns: Float64Array;
  /** Value-and-speed masks before the unlimited fallback (0 where V_t = 0). */
  readonly own: Uint32Array;
}

function firstLayer(mdp: FiniteMdp): FullLayer {
  const values = new Float64Array(mdp.states);
  for (let state = 0; state < mdp.states; state++) if (mdp.ends[state] === SUCCESS) values[state] = 1;
  return {
    values,
    masks: new Uint32Array(mdp.states),
    own: new Uint32Array(mdp.states),
    turns: new Float64Array(mdp.states),
  };
}

/** Layer t from layer t - 1 (masks without the fallback: `own`). */
function nextLayer(mdp: FiniteMdp, previous: FullLayer): FullLayer {
  const { states, actions } = mdp;
  const values = new Float64Array(states);
  const turns = new Float64Array(states);
  const own = new Uint32Array(states);
  const q = new Float64Array(actions);
  for (let state = 0; state < states; state++) {
    if (mdp.ends[state] === SUCCESS) values[state] = 1;
    if (mdp.ends[state] !== LIVE) continue;
    let best = 0;
    for (let action = 0; action < actions; action++) {
      q[action] = expectedAfter(mdp, previous.values, state, action);
      if (q[action]! > best) best = q[action]!;
    }
    if (best === 0) continue;
    const floor = best * (1 - MDP_TIE_TOLERANCE);
    let fastest = Infinity;
    const w = new Float64Array(actions).fill(Infinity);
    for (let action = 0; action < actions; action++) {
      if (!(q[action]! >= floor)) continue;
      w[action] = expectedAfter(mdp, previous.turns, state, action);
      fastest = Math.min(fastest, w[action]!);
    }
    const ceiling = fastest * (1 + MDP_TIE_TOLERANCE);
    let mask = 0;
    for (let action = 0; action < actions; action++) if (w[action]! <= ceiling) mask |= 1 << action;
    values[state] = best;
    turns[state] = best + fastest;
    own[state] = mask >>> 0;
  }
  return { values, turns, own, masks: own };
}

function sameLayer(a: FullLayer, b: FullLayer): boolean {
  for (let state = 0; state < a.values.length; state++) {
    if (a.values[state] !== b.values[state] || a.turns[state] !== b.turns[state] || a.own[state] !== b.own[state])
      return false;
  }
  return true;
}

/** The answers of an MDP at every horizon, computed on demand. */
export interface MdpSolution {
  readonly mdp: FiniteMdp;
  /** Fewest turns to success per state (fewestTurns). */
  readonly remaining: Float64Array;
  /** Answers within `turnsLeft` turns (Infinity: the unlimited horizon). */
  layer(turnsLeft: number): MdpLayer;
  /** Layers computed so far, and the first layer of the fixed point (-1 while none was reached). */
  computed(): number;
  fixedPoint(): number;
}

/** Solve an MDP; `maxLayers` lowers the cap on computed layers (tests). */
export function solveMdp(
  mdp: FiniteMdp,
  maxLayers = Math.min(MAX_LAYERS, Math.floor(MAX_TABLE_ENTRIES / Math.max(1, mdp.states))),
): MdpSolution {
  const remaining = fewestTurns(mdp);
  const own: FullLayer[] = [];
  let newest: FullLayer = firstLayer(mdp);
  own.push(newest);
  let fixed = -1;
  const grow = (): void => {
    const layer = nextLayer(mdp, newest);
    if (sameLayer(layer, newest)) fixed = own.length - 1;
    else own.push(layer);
    newest = layer;
  };
  /** Index of the layer that answers `target` turns left (the fixed point's at and past it). */
  const settle = (target: number): number => {
    while (fixed < 0 && own.length <= target && own.length < maxLayers) grow();
    if (fixed >= 0 && target >= fixed) return fixed;
    return Math.min(target, own.length - 1);
  };
  const answers: (MdpLayer | undefined)[] = [];
  return {
    mdp,
    remaining,
    layer(turnsLeft) {
      if (!(turnsLeft === Infinity || (Number.isInteger(turnsLeft) && turnsLeft >= 0)))
        throw new BudgetrlError("oracle:turns-left", `turnsLeft must be an integer >= 0 or Infinity, got ${turnsLeft}`);
      const index = settle(turnsLeft === Infinity ? maxLayers : turnsLeft);
      const known = answers[index];
      if (known !== undefined) return known;
      const layer = own[index]!;
      const limit = own[settle(maxLayers)]!;
      const masks = new Uint32Array(mdp.states);
      for (let state = 0; state < mdp.states; state++)
        masks[state] = layer.values[state]! > 0 ? layer.own[state]! : limit.own[state]!;
      const answer = { values: layer.values, masks };
      answers[index] = answer;
      return answer;
    },
    computed: () => own.length,
    fixedPoint: () => fixed,
  };
}

/** The action ids of a mask, ascending. */
export function actionsOfMask(mask: number): number[] {
  const ids: number[] = [];
  for (let action = 0; action < MAX_MDP_ACTIONS; action++) if ((mask & (1 << action)) !== 0) ids.push(action);
  return ids;
}

/** A policy for exact evaluation: the actions it picks uniformly from in `state` after `turnsUsed` turns. */
export type MdpPolicy = (state: number, turnsUsed: number) => number;

/** Success probability within `turns` turns from `start` of a policy that picks uniformly within the mask
 * `policy(state, turnsUsed)` gives (an empty mask, or one of unavailable actions, wastes the turn in place),
 * by propagating the state distribution turn by turn: exact up to rounding. */
export function successWithin(mdp: FiniteMdp, start: number, turns: number, policy: MdpPolicy): number {
  let mass = new Float64Array(mdp.states);
  mass[start] = 1;
  let success = mdp.ends[start] === SUCCESS ? 1 : 0;
  for (let used = 0; used < turns && success < 1; used++) {
    const after = new Float64Array(mdp.states);
    for (let state = 0; state < mdp.states; state++) {
      const weight = mass[state]!;
      if (weight === 0 || mdp.ends[state] !== LIVE) continue;
      const chosen = actionsOfMask(policy(state, used)).filter(
        (action) => mdp.start[state * mdp.actions + action] !== mdp.start[state * mdp.actions + action + 1],
      );
      if (chosen.length === 0) {
        after[state] = after[state]! + weight;
        continue;
      }
      for (const action of chosen) {
        const pair = state * mdp.actions + action;
        for (let index = mdp.start[pair]!; index < mdp.start[pair + 1]!; index++) {
          const to = mdp.next[index]!;
          const share = (weight / chosen.length) * mdp.prob[index]!;
          if (mdp.ends[to] === SUCCESS) success += share;
          else after[to] = after[to]! + share;
        }
      }
    }
    mass = after;
  }
  return success;
}

/** The oracle's play when it believes the budget is `assumed` turns (Infinity: unlimited): at turn k it acts
 * as if max(assumed - k, 0) turns were left. Played at the real budget, this is budget-blind play. */
export function assumedBudgetPolicy(solution: MdpSolution, assumed: number): MdpPolicy {
  return (state, used) => solution.layer(assumed === Infinity ? Infinity : Math.max(assumed - used, 0)).masks[state]!;
}

/** What budget-blind play costs on one task: success within each of `turns` (real budgets, in turns) of the
 * budget-aware oracle, of the oracle believing each of `turns` in turn (assumed[i][j]: believes turns[i], plays
 * within turns[j]; assumed[j][j] = aware[j]), and of the unlimited-horizon oracle. */
export interface BudgetBlindness {
  readonly aware: readonly number[];
  readonly assumed: readonly (readonly number[])[];
  readonly unbounded: readonly number[];
}

export function budgetBlindness(solution: MdpSolution, start: number, turns: readonly number[]): BudgetBlindness {
  const play = (assumed: number, real: number): number =>
    successWithin(solution.mdp, start, real, assumedBudgetPolicy(solution, assumed));
  return {
    aware: turns.map((real) => solution.layer(real).values[start]!),
    assumed: turns.map((assumed) => turns.map((real) => play(assumed, real))),
    unbounded: turns.map((real) => play(Infinity, real)),
  };
}
