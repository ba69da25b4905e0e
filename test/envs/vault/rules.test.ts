import { describe, expect, it } from "vitest";
import { createRng } from "../../../src/core/rng.js";
import {
  ACTION_TEXTS,
  CHECK_ACTION,
  drawCodes,
  playAction,
  shownCode,
  startPosition,
} from "../../../src/envs/vault/rules.js";
import { readVaultTask } from "../../../src/envs/vault/tasks.js";

describe("vault rules", () => {
  const task = readVaultTask("7 3? 5", "test");

  it("lists the ten digits, then check, as action ids 0-10", () => {
    expect(ACTION_TEXTS).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "check"]);
    expect(ACTION_TEXTS[CHECK_ACTION]).toBe("check");
  });

  it("keeps certain codes and draws uncertain ones: the hint with the reliability, else another digit uniformly", () => {
    const counts = Array.from({ length: 10 }, () => 0);
    const rng = createRng(1);
    const draws = 20_000;
    for (let draw = 0; draw < draws; draw++) {
      const codes = drawCodes(task, 0.6, rng);
      expect(codes[0]).toBe(7);
      expect(codes[2]).toBe(5);
      counts[codes[1]!]! += 1;
    }
    // Standard error of a share of 20,000 draws is at most 0.0035.
    expect(counts[3]! / draws).toBeCloseTo(0.6, 1);
    for (const digit of [0, 1, 2, 4, 5, 6, 7, 8, 9])
      expect(Math.abs(counts[digit]! / draws - 0.4 / 9)).toBeLessThan(0.012);
    expect(drawCodes(task, 0.6, createRng(9))).toEqual(drawCodes(task, 0.6, createRng(9)));
    expect(drawCodes(task, 1, createRng(9))).toEqual([7, 3, 5]);
  });

  it("opens a lock with its code, moving on to the next one, whose certainty decides whether its code is known", () => {
    const codes = [7, 4, 5];
    const start = startPosition(task);
    expect(start).toEqual({ lock: 0, known: true, end: null });
    const first = playAction(task, codes, start, 7);
    expect(first).toEqual({
      position: { lock: 1, known: false, end: null },
      effect: { kind: "opened", lock: 0, code: 7 },
    });
    expect(shownCode(task, codes, first.position)).toBe(3);
    const checked = playAction(task, codes, first.position, CHECK_ACTION);
    expect(checked).toEqual({
      position: { lock: 1, known: true, end: null },
      effect: { kind: "checked", lock: 1, hint: 3, code: 4 },
    });
    expect(shownCode(task, codes, checked.position)).toBe(4);
    const second = playAction(task, codes, checked.position, 4);
    expect(second.position).toEqual({ lock: 2, known: true, end: null });
    expect(playAction(task, codes, second.position, 5)).toEqual({
      position: { lock: 3, known: true, end: "open" },
      effect: { kind: "opened", lock: 2, code: 5 },
    });
  });

  it("sounds the alarm on a wrong code, even the hint of an uncertain lock, and wastes a check of a known code", () => {
    const codes = [7, 4, 5];
    expect(playAction(task, codes, startPosition(task), 3)).toEqual({
      position: { lock: 0, known: true, end: "alarm" },
      effect: { kind: "alarm", lock: 0, entered: 3, code: 7 },
    });
    const atHint = { lock: 1, known: false, end: null } as const;
    expect(playAction(task, codes, atHint, 3).position.end).toBe("alarm");
    expect(playAction(task, codes, startPosition(task), CHECK_ACTION)).toEqual({
      position: startPosition(task),
      effect: { kind: "wasted", lock: 0 },
    });
  });
});
