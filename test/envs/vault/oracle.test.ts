import { describe, expect, it } from "vitest";
import { startState, UNCHECKED, VIEWS } from "../../../src/envs/vault/mdp.js";
import { buildVaultOracle } from "../../../src/envs/vault/oracle.js";
import { readVaultTask, uncertainCount, type VaultTask } from "../../../src/envs/vault/tasks.js";

const TOLERANCE = 1e-10;

/** An independent expectimax over what the agent knows, (lock, known?, turns left), written from the rules:
 * value = success within t; among actions within TOLERANCE of the best, those with the fewest expected turns
 * (E[turns; success within t]); when nothing succeeds in time, the answer at a long horizon. */
function bruteForce(
  task: VaultTask,
  p: number,
): (lock: number, known: boolean, t: number) => { value: number; turns: number; optimal: string[] } {
  const m = task.hints.length;
  const memo = new Map<string, { value: number; turns: number; optimal: string[] }>();
  const solve = (lock: number, known: boolean, t: number): { value: number; turns: number; optimal: string[] } => {
    if (lock === m) return { value: 1, turns: 0, optimal: [] };
    if (t === 0) return { value: 0, turns: 0, optimal: [] };
    const key = `${lock}:${known}:${t}`;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    const next = solve(lock + 1, lock + 1 < m ? !task.uncertain[lock + 1] : true, t - 1);
    const after = solve(lock, true, t - 1);
    // A known lock's shown digit is its code (the true code after a check: the same value whatever it is).
    const candidates: { action: string; value: number; turns: number }[] = [];
    for (let digit = 0; digit < 10; digit++) {
      const right = known ? (digit === task.hints[lock] ? 1 : 0) : digit === task.hints[lock] ? p : (1 - p) / 9;
      candidates.push({ action: String(digit), value: right * next.value, turns: right * (next.value + next.turns) });
    }
    candidates.push({ action: "check", value: after.value, turns: after.value + after.turns });
    const best = Math.max(...candidates.map((candidate) => candidate.value));
    const ties = candidates.filter((candidate) => candidate.value >= best * (1 - TOLERANCE));
    const fastest = Math.min(...ties.map((candidate) => candidate.turns));
    const answer = {
      value: best,
      turns: best === 0 ? 0 : fastest,
      optimal: ties
        .filter((candidate) => candidate.turns <= fastest * (1 + TOLERANCE))
        .map((candidate) => candidate.action),
    };
    memo.set(key, answer);
    return answer;
  };
  return (lock, known, t) => {
    const answer = solve(lock, known, t);
    return answer.value > 0 || lock === m ? answer : { ...answer, optimal: solve(lock, known, 4 * m + 4).optimal };
  };
}

const TASKS = ["7 3? 5", "3? 3? 3?", "1 2 3 4", "0? 1 2? 3 4? 5? 6", "9?", "5 5? 5 5? 5 5? 5 5? 5 5?"].map((text) =>
  readVaultTask(text, "test"),
);

/** Uncertain locks from `lock` on. */
function uncertainFrom(task: VaultTask, lock: number): number {
  return task.uncertain.slice(lock).filter(Boolean).length;
}

describe("vault oracle", () => {
  it("equals an independent expectimax at every lock, view and horizon up to 3 m + 2 turns", () => {
    for (const p of [0.6, 0.25, 0.9, 1]) {
      for (const task of TASKS) {
        const oracle = buildVaultOracle(task, p);
        const brute = bruteForce(task, p);
        const m = task.hints.length;
        for (let lock = 0; lock < m; lock++) {
          const views = task.uncertain[lock]
            ? [UNCHECKED, task.hints[lock]!, (task.hints[lock]! + 1) % 10]
            : [task.hints[lock]!];
          for (const view of views) {
            for (let t = 0; t <= 3 * m + 2; t++) {
              const expected = brute(lock, view !== UNCHECKED, t);
              // A checked lock whose code is not the hint: the brute force's digits are relabelled.
              const optimal =
                view === UNCHECKED || view === task.hints[lock]
                  ? expected.optimal
                  : expected.optimal.map((action) => (action === String(task.hints[lock]) ? String(view) : action));
              const answer = oracle.answer(VIEWS * lock + view, t);
              expect(answer.optimal, `p ${p}, task ${task.hints}, lock ${lock}, view ${view}, t ${t}`).toEqual(optimal);
              expect(answer.value).toBeCloseTo(expected.value, 12);
              expect(answer.remaining).toBe(m - lock);
            }
          }
        }
      }
    }
  });

  it("succeeds from the start with p^(u - min(s, u)) for s = t - m spare turns, and surely with unlimited time", () => {
    for (const p of [0.6, 0.3]) {
      for (const task of TASKS) {
        const oracle = buildVaultOracle(task, p);
        const m = task.hints.length;
        const u = uncertainCount(task);
        const start = startState(task);
        for (let t = 0; t <= 3 * m; t++) {
          const expected = t < m ? 0 : p ** (u - Math.min(t - m, u));
          expect(oracle.value(start, t)).toBeCloseTo(expected, 12);
          expect(oracle.answer(start, t).value).toBeCloseTo(expected, 12);
        }
        expect(oracle.value(start)).toBeCloseTo(1, 12);
        expect(oracle.answer(start).remaining).toBe(m);
      }
    }
  });

  it("checks a hint when every remaining hint can be checked, guesses with no spare turn, allows both in between", () => {
    const task = readVaultTask("0? 1 2? 3 4? 5? 6", "test");
    const oracle = buildVaultOracle(task, 0.6);
    for (const lock of [0, 2, 4, 5]) {
      const toGo = task.hints.length - lock;
      const u = uncertainFrom(task, lock);
      const hint = String(task.hints[lock]);
      for (let t = 0; t <= 3 * task.hints.length; t++) {
        const spare = t - toGo;
        const expected = spare < 0 || spare >= u ? ["check"] : spare === 0 ? [hint] : [hint, "check"];
        expect(oracle.answer(VIEWS * lock + UNCHECKED, t).optimal, `lock ${lock}, t ${t}`).toEqual(expected);
      }
      expect(oracle.answer(VIEWS * lock + UNCHECKED).optimal).toEqual(["check"]);
    }
    // A known code is entered at every horizon.
    for (const t of [0, 1, 5, 50]) expect(oracle.answer(VIEWS + 1, t).optimal).toEqual(["1"]);
  });

  it("answers nothing at the ends: remaining 0 and value 1 on success, Infinity and 0 after the alarm", () => {
    const task = TASKS[0]!;
    const oracle = buildVaultOracle(task, 0.6);
    expect(oracle.answer(VIEWS * 3, 4)).toEqual({ optimal: [], remaining: 0, value: 1 });
    expect(oracle.answer(VIEWS * 3 + 1, 4)).toEqual({ optimal: [], remaining: Infinity, value: 0 });
    expect(() => oracle.answer(startState(task), -1)).toThrow("turnsLeft must be an integer >= 0");
  });
});
