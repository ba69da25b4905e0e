// `budgetrl bfcl run` (bfclRun) on the fake data dir: results and final state as JSON, bad input named; and on the
// bundled data when no data dir is given.
import { describe, expect, it } from "vitest";
import { bfclRun, categoryOfId } from "../../../src/envs/bfcl/run-calls.js";
import { FAKE_CLASSES, writeFakeDataDir } from "./fixtures.js";

describe("bfclRun", () => {
  const dataDir = writeFakeDataDir();

  it("runs the ground truth by default and prints results and final state as sorted JSON", () => {
    const text = bfclRun({ dataDir, entry: "multi_turn_base_0", classes: FAKE_CLASSES });
    expect(text).toBe(`{
  "entry": "multi_turn_base_0",
  "state": {
    "Counter": {
      "count": 3,
      "history": [
        2
      ]
    },
    "Notes": {
      "notes": {
        "a": "hello",
        "todo": "buy milk"
      }
    }
  },
  "turns": [
    [
      {
        "call": "add(amount=2)",
        "result": "{\\"count\\": 3}"
      }
    ],
    [
      {
        "call": "write(title='a',text='hello')",
        "result": "{\\"status\\": \\"ok\\"}"
      }
    ],
    [
      {
        "call": "read('a')",
        "result": "hello"
      }
    ]
  ]
}`);
  });

  it("runs a given call list with the entry's callable functions, reporting bad calls as results", () => {
    const output = JSON.parse(
      bfclRun({
        dataDir,
        entry: "multi_turn_base_0",
        classes: FAKE_CLASSES,
        calls: `[["add(amount=1)", "delete(title='todo')", "add(amount="], []]`,
      }),
    ) as { turns: { call: string; result: string }[][]; state: { Notes: unknown } };
    expect(output.turns[0]?.map((item) => item.result)).toEqual([
      '{"count": 2}',
      "Error during execution: name 'delete' is not defined",
      "Error during execution: invalid syntax (expected a value but found end of input)",
    ]);
    expect(output.turns).toHaveLength(2);
    const all = JSON.parse(
      bfclRun({
        dataDir,
        entry: "multi_turn_base_0",
        classes: FAKE_CLASSES,
        calls: [["delete(title='todo')"]],
        callable: "all",
      }),
    ) as { state: { Notes: unknown } };
    expect(all.state.Notes).toEqual({ notes: {} });
  });

  it("names what is wrong with the entry or the call list", () => {
    expect(() => categoryOfId("base_0")).toThrow(/"base_0" is not a multi-turn entry id/);
    expect(categoryOfId("multi_turn_long_context_12")).toBe("long_context");
    expect(() => bfclRun({ dataDir, entry: "multi_turn_base_7", classes: FAKE_CLASSES })).toThrow(
      /no entry "multi_turn_base_7"/,
    );
    expect(() => bfclRun({ dataDir, entry: "multi_turn_base_0", classes: FAKE_CLASSES, calls: "[[1]]" })).toThrow(
      /one list of call strings per user turn/,
    );
    expect(() => bfclRun({ dataDir, entry: "multi_turn_base_0", classes: FAKE_CLASSES, calls: "[[" })).toThrow(
      /not valid JSON/,
    );
    expect(() =>
      bfclRun({ dataDir, entry: "multi_turn_base_0", classes: FAKE_CLASSES, calls: "[[], [], [], []]" }),
    ).toThrow(/4 turns of calls for multi_turn_base_0, which has 3 user turns/);
    expect(() => bfclRun({ dataDir, entry: "multi_turn_base_0", classes: [] })).toThrow(
      /backend classes Counter, Notes are not available/,
    );
  });

  it("reads the bundled data when no data dir is given", () => {
    const output = JSON.parse(bfclRun({ entry: "multi_turn_miss_func_0", calls: '[["ls()"]]' })) as {
      entry: string;
      turns: { call: string; result: string }[][];
    };
    expect(output.entry).toBe("multi_turn_miss_func_0");
    expect(output.turns).toHaveLength(1);
    expect(output.turns[0]![0]!.call).toBe("ls()");
    expect(output.turns[0]![0]!.result).toMatch(/^\{"current_directory_content": \[/);
  });
});
