import { describe, expect, it } from "vitest";
import { DataError } from "../../../src/core/errors.js";
import { hanoiTask, parseHanoiTasks, printHanoiTask } from "../../../src/envs/hanoi/tasks.js";

describe("hanoi tasks", () => {
  it("reads one task per line, with an optional start configuration", () => {
    const tasks = parseHanoiTasks("# towers\n3\n\n4 baac\r\n; done\n");
    expect(tasks).toEqual([
      { disks: 3, start: "AAA" },
      { disks: 4, start: "BAAC" },
    ]);
    for (const task of tasks) expect(parseHanoiTasks(printHanoiTask(task))).toEqual([task]);
  });

  it("refuses malformed lines and solved starts, naming the line", () => {
    expect(() => parseHanoiTasks("3\nthree")).toThrow(/line 2/);
    expect(() => parseHanoiTasks("3 AB")).toThrow(/3 peg letters/);
    expect(() => parseHanoiTasks("2 AD")).toThrow(DataError);
    expect(() => parseHanoiTasks("0")).toThrow(/from 1 to 24/);
    expect(() => parseHanoiTasks("25")).toThrow(/from 1 to 24/);
    expect(() => parseHanoiTasks("2 CC")).toThrow(/already solved/);
    expect(() => parseHanoiTasks("# nothing")).toThrow(/no tasks/);
    expect(() => hanoiTask(2.5, undefined, "task")).toThrow(DataError);
  });
});
