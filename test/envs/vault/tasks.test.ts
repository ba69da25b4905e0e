import { describe, expect, it } from "vitest";
import { DataError } from "../../../src/core/errors.js";
import {
  MAX_LOCKS,
  parseVaultTasks,
  printVaultTask,
  readVaultTask,
  uncertainCount,
  vaultStructureKey,
  vaultTask,
} from "../../../src/envs/vault/tasks.js";

describe("vault tasks", () => {
  it("reads locks with spaces or without, a ? marking an uncertain hint, and prints them canonically", () => {
    const task = readVaultTask(" 7 3?  5 ", "test");
    expect(task).toEqual({ hints: [7, 3, 5], uncertain: [false, true, false] });
    expect(readVaultTask("73?5", "test")).toEqual(task);
    expect(printVaultTask(task)).toBe("7 3? 5");
    expect(uncertainCount(task)).toBe(1);
    expect(Object.isFrozen(task) && Object.isFrozen(task.hints)).toBe(true);
  });

  it("reads a file of one task per line, skipping blank lines and comments", () => {
    const tasks = parseVaultTasks("# vaults\n7 3? 5\n\n; another\n// and another\r\n0? 0?\n");
    expect(tasks.map(printVaultTask)).toEqual(["7 3? 5", "0? 0?"]);
  });

  it("refuses what is not a vault with a DataError naming the line", () => {
    expect(() => parseVaultTasks("7 3? 5\n7 x 5\n")).toThrow("vault line 2: expected locks written as digits");
    expect(() => parseVaultTasks("?7")).toThrow(DataError);
    expect(() => parseVaultTasks("7??")).toThrow(DataError);
    expect(() => parseVaultTasks("12 3")).not.toThrow();
    expect(() => parseVaultTasks("# nothing\n")).toThrow("vault: no tasks found in the file");
    expect(() => parseVaultTasks("1".repeat(MAX_LOCKS + 1))).toThrow(
      `a vault has 1 to ${MAX_LOCKS} locks, got ${MAX_LOCKS + 1}`,
    );
    expect(() => vaultTask([1, 2], [true], "task")).toThrow("2 hints but 1 certainty flags");
    expect(() => vaultTask([10], [false], "task")).toThrow("every hint must be a digit 0-9");
  });

  it("keys a task's structure by its lock count and which hints are uncertain, not by the digits", () => {
    expect(vaultStructureKey(readVaultTask("7 3? 5 1? 0?", "test"))).toBe("5:.?.??");
    expect(vaultStructureKey(readVaultTask("2 9? 8 0? 4?", "test"))).toBe("5:.?.??");
    expect(vaultStructureKey(readVaultTask("2? 9 8 0? 4?", "test"))).toBe("5:?..??");
    expect(vaultStructureKey(readVaultTask("1? 2?", "test"))).toBe(vaultStructureKey(readVaultTask("8? 0?", "test")));
  });
});
