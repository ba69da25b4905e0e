import { describe, expect, it } from "vitest";
import { FAILURE, LIVE, SUCCESS } from "../../../src/envs/shared/finite-mdp.js";
import { buildVaultMdp, startState, stateId, UNCHECKED, VIEWS } from "../../../src/envs/vault/mdp.js";
import { CHECK_ACTION } from "../../../src/envs/vault/rules.js";
import { readVaultTask } from "../../../src/envs/vault/tasks.js";

/** Outcomes of (state, action) as [next, probability] pairs. */
function outcomes(mdp: ReturnType<typeof buildVaultMdp>, state: number, action: number): [number, number][] {
  const pair = state * mdp.actions + action;
  const out: [number, number][] = [];
  for (let index = mdp.start[pair]!; index < mdp.start[pair + 1]!; index++)
    out.push([mdp.next[index]!, mdp.prob[index]!]);
  return out;
}

describe("vault MDP", () => {
  const task = readVaultTask("7 3? 5", "test");
  const mdp = buildVaultMdp(task, 0.6);
  const success = VIEWS * 3;
  const failure = success + 1;

  it("has 11 views per lock, then success and failure, and starts at the first lock's view", () => {
    expect(mdp.states).toBe(35);
    expect(mdp.actions).toBe(11);
    expect(mdp.ends[success]).toBe(SUCCESS);
    expect(mdp.ends[failure]).toBe(FAILURE);
    expect(mdp.ends[0]).toBe(LIVE);
    expect(startState(task)).toBe(7);
    expect(startState(readVaultTask("3? 5", "test"))).toBe(UNCHECKED);
    expect(stateId(task, { lock: 1, known: false, end: null }, 3)).toBe(VIEWS + UNCHECKED);
    expect(stateId(task, { lock: 1, known: true, end: null }, 4)).toBe(VIEWS + 4);
    expect(stateId(task, { lock: 3, known: true, end: "open" }, 0)).toBe(success);
    expect(stateId(task, { lock: 1, known: false, end: "alarm" }, 0)).toBe(failure);
  });

  it("opens a known lock with its code only, and wastes a check there", () => {
    expect(outcomes(mdp, 7, 7)).toEqual([[VIEWS + UNCHECKED, 1]]);
    expect(outcomes(mdp, 7, 3)).toEqual([[failure, 1]]);
    expect(outcomes(mdp, 7, CHECK_ACTION)).toEqual([[7, 1]]);
    expect(outcomes(mdp, 2 * VIEWS + 5, 5)).toEqual([[success, 1]]);
  });

  it("opens an unchecked hint with its reliability, other digits with (1 - p) / 9, and checks reveal a code", () => {
    const hint = VIEWS + UNCHECKED;
    const other = 0.4 / 9;
    expect(outcomes(mdp, hint, 3)).toEqual([
      [2 * VIEWS + 5, 0.6],
      [failure, 1 - 0.6],
    ]);
    expect(outcomes(mdp, hint, 8)).toEqual([
      [2 * VIEWS + 5, other],
      [failure, 1 - other],
    ]);
    const check = outcomes(mdp, hint, CHECK_ACTION);
    expect(check.map(([next]) => next)).toEqual(Array.from({ length: 10 }, (_, code) => VIEWS + code));
    expect(check[3]![1]).toBe(0.6);
    expect(check.reduce((sum, [, probability]) => sum + probability, 0)).toBeCloseTo(1, 12);
  });

  it("leaves out impossible outcomes when hints are always right", () => {
    const sure = buildVaultMdp(task, 1);
    expect(outcomes(sure, VIEWS + UNCHECKED, 3)).toEqual([[2 * VIEWS + 5, 1]]);
    expect(outcomes(sure, VIEWS + UNCHECKED, 8)).toEqual([[failure, 1]]);
    expect(outcomes(sure, VIEWS + UNCHECKED, CHECK_ACTION)).toEqual([[VIEWS + 3, 1]]);
  });
});
