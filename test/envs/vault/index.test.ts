import { describe, expect, it } from "vitest";
import { assistantMessage } from "../../../src/core/message.js";
import { createEnv } from "../../../src/envs/registry.js";
import { vault, type VaultState } from "../../../src/envs/vault/index.js";
import { VAULT_FORMAT_HINT } from "../../../src/envs/vault/render.js";
import { readVaultTask, uncertainCount, type VaultTask } from "../../../src/envs/vault/tasks.js";
import { playReplies } from "../../helpers/play-replies.js";
import { runEnvContract } from "../contract.js";

runEnvContract("vault", () => vault(), { deterministic: false, formatHint: VAULT_FORMAT_HINT });
runEnvContract("vault, sure hints", () => vault({ reliability: 1, minLocks: 1, maxLocks: 4 }), {
  deterministic: true,
  formatHint: VAULT_FORMAT_HINT,
  fuzzRuns: 2000,
});

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

describe("vault env", () => {
  const env = vault();
  const task = readVaultTask("7 3? 5", "test");
  /** The state after reset, with the hidden codes set by the test. */
  const start = (codes: readonly number[], target: VaultTask = task): VaultState => ({
    ...env.reset(target, { seed: 0 }).state,
    codes,
  });
  const play = (state: VaultState, actions: readonly string[]) => playReplies(env, state, actions);

  it("is registered with its options, and its task id is a hash of the task's text", () => {
    expect(createEnv("vault", { maxLocks: "6" }).spec.config).toMatchObject({ maxLocks: 6 });
    expect(env.tasks.id(task)).toBe(env.tasks.id(readVaultTask("73?5", "again")));
    expect(env.tasks.id(task)).not.toBe(env.tasks.id(readVaultTask("7 3 5", "test")));
    expect(env.tasks.encode(task)).toEqual({ locks: "7 3? 5" });
    expect(() => env.tasks.decode({ locks: 735 })).toThrow('vault: a task must be {"locks": "7 3? 5"}');
  });

  it("has the number of locks as its optimal length, and three times it as the reference budget", () => {
    expect(env.tasks.optimalTurns!(task, "episode")).toBe(3);
    expect(env.tasks.referenceBudget(task, "episode")).toBe(9);
    expect(vault({ referenceFactor: 5 }).tasks.referenceBudget(task, "episode")).toBe(15);
  });

  it("plays a vault: the reset shows the first lock, a check reveals the code, the last code opens it", () => {
    const reset = env.reset(task, { seed: 0 });
    expect(reset.observation[0]!.role).toBe("system");
    expect(reset.observation[1]!.content).toBe("Lock 1/3, 3 to go: code 7");
    const steps = play(start([7, 4, 5]), ["7", "check", "4", "<answer>5</answer>"]);
    expect(steps.map((step) => step.observation[0]!.content)).toEqual([
      "7 opened lock 1.\nLock 2/3, 2 to go: hint 3?",
      "Checked: hint 3 was wrong.\nLock 2/3, 2 to go: code 4",
      "4 opened lock 2.\nLock 3/3, 1 to go: code 5",
      "5 opened lock 3.\nThe vault is open (3/3 locks).",
    ]);
    expect(steps.map((step) => step.reward)).toEqual([0, 0, 0, 1]);
    expect(steps.map((step) => step.terminated)).toEqual([false, false, false, true]);
    expect(steps[3]!.info.stopReason).toBe("success");
    expect(steps.map((step) => step.info.parsedAction)).toEqual(["7", "check", "4", "5"]);
  });

  it("sounds the alarm on a wrong code, ending the episode in failure", () => {
    const [first, second] = play(start([7, 4, 5]), ["7", "3"]);
    expect(first!.terminated).toBe(false);
    expect(second!.observation[0]!.content).toBe(
      "3 is wrong (the code was 4): alarm!\nAlarm at lock 2/3: the vault is shut.",
    );
    expect(second!.terminated).toBe(true);
    expect(second!.info.stopReason).toBe("failure");
    expect(second!.info.progress).toBe(0);
    expect(env.actions.valid(second!.state)).toEqual([]);
    const after = env.step(second!.state, assistantMessage("5"));
    expect(after.terminated).toBe(true);
    expect(after.observation[0]!.content).toContain("The episode is over.");
  });

  it("counts a check of a known code as a wasted turn, not an invalid reply, and a reply naming no action as invalid", () => {
    const state = start([7, 3, 5]);
    const key = env.actions.stateKey(state);
    const wasted = env.step(state, assistantMessage("verify"));
    expect(wasted.info).toMatchObject({ invalid: false, parsedAction: "check", stateKey: key });
    expect(wasted.observation[0]!.content).toBe(
      "Wasted turn: lock 1's code was already known.\nLock 1/3, 3 to go: code 7",
    );
    const invalid = env.step(wasted.state, assistantMessage("open sesame"));
    expect(invalid.info).toMatchObject({ invalid: true, parsedAction: null, stateKey: key });
    expect(invalid.observation[0]!.content).toBe(
      "Invalid. Answer check or a digit: 0 1 2 3 4 5 6 7 8 9.\nLock 1/3, 3 to go: code 7",
    );
  });

  it("draws the hidden codes from the reset seed: the same seed gives the same codes, the codes stay out of the key", () => {
    const sure = readVaultTask("1? 2? 3? 4? 5? 6? 7? 8?", "test");
    const codes = (seed: number) => env.reset(sure, { seed }).state.codes;
    expect(codes(3)).toEqual(codes(3));
    const draws = Array.from({ length: 200 }, (_, seed) => codes(seed));
    const right = draws.flatMap((drawn) => drawn.map((code, lock) => code === sure.hints[lock])).filter(Boolean).length;
    expect(right / (200 * 8)).toBeGreaterThan(0.55);
    expect(right / (200 * 8)).toBeLessThan(0.65);
    expect(
      new Set(draws.map((drawn) => env.actions.stateKey({ ...env.reset(sure, { seed: 0 }).state, codes: drawn }))).size,
    ).toBe(1);
  });

  it("keys states by what the agent sees: a checked code is a different state from the unchecked hint", () => {
    const atHint = play(start([7, 4, 5]), ["7"])[0]!.state;
    const checked = play(atHint, ["check"])[0]!.state;
    const checkedRight = play(play(start([7, 3, 5]), ["7"])[0]!.state, ["check"])[0]!.state;
    expect(
      new Set([env.actions.stateKey(atHint), env.actions.stateKey(checked), env.actions.stateKey(checkedRight)]).size,
    ).toBe(3);
  });

  it("answers the budget-aware oracle and progress from the state: check while a spare turn remains, else guess", () => {
    const state = play(start([7, 4, 5]), ["7"])[0]!.state;
    expect(env.oracle!.answer(state, 2)).toEqual({ optimal: ["3"], remaining: 2, value: 0.6 });
    expect(env.oracle!.answer(state, 3).optimal).toEqual(["check"]);
    expect(env.oracle!.answer(state, 3).value).toBeCloseTo(1, 12);
    expect(env.oracle!.answer(state).optimal).toEqual(["check"]);
    expect(env.oracle!.progressWithin!(state, 1)).toBe(0);
    expect(env.oracle!.progressWithin!(state, 2)).toBe(0.6);
    expect(env.oracle!.progressWithin!(state, 3)).toBeCloseTo(1, 12);
    expect(env.step(state, assistantMessage("check")).info.progress).toBeCloseTo(1, 12);
  });

  it("makes the oracle's value the exact success of its rule 'check iff turns left > locks to go', played through the env", () => {
    // Every hidden outcome of a task's uncertain hints (right, or wrong with one code standing for the 9 others).
    for (const text of ["7 3? 5", "3? 3? 3?", "0? 1 2? 3 4? 5? 6"]) {
      const target = readVaultTask(text, "test");
      const uncertainLocks = target.hints.map((_, lock) => lock).filter((lock) => target.uncertain[lock]);
      const m = target.hints.length;
      for (let budget = m; budget <= 3 * m; budget++) {
        let success = 0;
        for (let outcome = 0; outcome < 2 ** uncertainLocks.length; outcome++) {
          const codes = target.hints.map((hint, lock) => {
            const bit = uncertainLocks.indexOf(lock);
            return bit >= 0 && ((outcome >> bit) & 1) === 1 ? (hint + 1) % 10 : hint;
          });
          const wrong = uncertainLocks.filter((_, bit) => ((outcome >> bit) & 1) === 1).length;
          let state = start(codes, target);
          let opened = false;
          for (let turn = 0; turn < budget && !opened; turn++) {
            const { lock, known } = state.position;
            const spare = budget - turn > m - lock;
            const action = !known && spare ? "check" : String(known ? state.codes[lock] : target.hints[lock]);
            const result = env.step(state, assistantMessage(action));
            state = result.state;
            if (result.terminated) {
              opened = result.info.stopReason === "success";
              break;
            }
          }
          if (opened) success += 0.4 ** wrong * 0.6 ** (uncertainLocks.length - wrong);
        }
        const reset = env.reset(target, { seed: 0 }).state;
        expect(success, `${text} within ${budget}`).toBeCloseTo(env.oracle!.answer(reset, budget).value!, 12);
        expect(success).toBeCloseTo(0.6 ** (uncertainCount(target) - Math.min(budget - m, uncertainCount(target))), 12);
      }
    }
  });

  it("keeps every observation of the default tasks within 85 bytes, along oracle play at several budgets", () => {
    let longest = 0;
    for (let seed = 0; seed < 60; seed++) {
      const generated = env.tasks.generate(seed);
      for (const budget of [generated.hints.length, 2 * generated.hints.length]) {
        let { state } = env.reset(generated, { seed });
        for (let turn = 0; turn < budget; turn++) {
          const result = env.step(state, assistantMessage(env.oracle!.answer(state, budget - turn).optimal[0]!));
          const invalid = env.step(result.state, assistantMessage("?"));
          longest = Math.max(
            longest,
            bytes(result.observation[0]!.content as string),
            bytes(invalid.observation[0]!.content as string),
          );
          state = result.state;
          if (result.terminated) break;
        }
      }
    }
    expect(longest).toBeLessThanOrEqual(85);
  });

  it("keys structures by lock count and uncertain placement, counting 3,054 by default and 1 for 2-lock vaults", () => {
    expect(env.tasks.structureKey(task)).toBe("3:.?.");
    expect(env.tasks.structureKey(readVaultTask("0 9? 2", "test"))).toBe(env.tasks.structureKey(task));
    expect(env.tasks.distinctStructures?.()).toBe(3054);
    const pairs = vault({ minLocks: 2, maxLocks: 2 });
    expect(pairs.tasks.distinctStructures?.()).toBe(1);
    expect(
      new Set(Array.from({ length: 50 }, (_, seed) => pairs.tasks.structureKey(pairs.tasks.generate(seed)))),
    ).toEqual(new Set(["2:??"]));
  });
});
