// Entries and their ground truth from the fake data dir: parsing, file order, errors naming the file and line.
import { describe, expect, it } from "vitest";
import { DataError } from "../../../../src/core/errors.js";
import { formatCall } from "../../../../src/envs/bfcl/calls/format.js";
import { loadCategory, loadEntries, parseCategories } from "../../../../src/envs/bfcl/load/entries.js";
import { writeFakeDataDir } from "../fixtures.js";

function loadError(edit: (files: Map<string, string>) => void): DataError {
  const dir = writeFakeDataDir(edit);
  try {
    loadEntries(dir, ["base"]);
  } catch (error) {
    if (error instanceof DataError) return error;
    throw error;
  }
  throw new Error("expected a DataError");
}

describe("loading entries", () => {
  it("reads entries with their parsed ground truth, in file order", () => {
    const entries = loadEntries(writeFakeDataDir(), ["miss_func", "base"]);
    expect(entries.map((entry) => entry.id)).toEqual([
      "multi_turn_miss_func_0",
      "multi_turn_base_0",
      "multi_turn_base_1",
    ]);
    const [missFunc, base] = entries;
    expect(missFunc?.missedFunctions).toEqual(new Map([[2, ["read"]]]));
    expect(missFunc?.question[2]).toEqual([]);
    expect(base?.excludedFunctions).toEqual(["delete"]);
    expect(base?.groundTruth[2]?.[0]?.text).toBe("read('a')");
    expect(formatCall(base?.groundTruth[1]?.[0]?.call as never)).toBe("write(title='a', text='hello')");
    expect(base?.longContext).toBe(false);
    expect(loadCategory(writeFakeDataDir(), "long_context")[0]?.longContext).toBe(true);
  });

  it("names the file and line of malformed or missing data", () => {
    expect(loadError((files) => files.delete("data/BFCL_v4_multi_turn_base.json")).message).toMatch(
      /BFCL_v4_multi_turn_base\.json: file not found/,
    );
    expect(
      loadError((files) =>
        files.set(
          "data/BFCL_v4_multi_turn_base.json",
          `${files.get("data/BFCL_v4_multi_turn_base.json")?.split("\n")[0]}\n{"id": oops}\n`,
        ),
      ).message,
    ).toMatch(/data\/BFCL_v4_multi_turn_base\.json:2: malformed JSON/);
    const shape = loadError((files) =>
      files.set(
        "data/BFCL_v4_multi_turn_base.json",
        '{"id": "multi_turn_base_0", "question": "hi", "involved_classes": []}\n',
      ),
    );
    expect(shape.message).toMatch(/BFCL_v4_multi_turn_base\.json:1: question must be a list, found a str/);
    const role = loadError((files) =>
      files.set(
        "data/BFCL_v4_multi_turn_base.json",
        '{"id": "x", "question": [[{"role": "bot", "content": "hi"}]], "involved_classes": []}\n',
      ),
    );
    expect(role.message).toMatch(/question\[0\]\[0\]\.role must be one of system, user, assistant/);
  });

  it("checks the ground truth against the questions", () => {
    const order = loadError((files) => {
      const [first, second] = (files.get("possible_answer/BFCL_v4_multi_turn_base.json") as string).split("\n");
      files.set("possible_answer/BFCL_v4_multi_turn_base.json", `${second}\n${first}\n`);
    });
    expect(order.message).toMatch(
      /possible_answer\/BFCL_v4_multi_turn_base\.json:1: ground truth for "multi_turn_base_1" where "multi_turn_base_0" was expected/,
    );
    const turns = loadError((files) =>
      files.set(
        "possible_answer/BFCL_v4_multi_turn_base.json",
        '{"id": "multi_turn_base_0", "ground_truth": [[]]}\n{"id": "multi_turn_base_1", "ground_truth": [[], []]}\n',
      ),
    );
    expect(turns.message).toMatch(/ground_truth of multi_turn_base_0 has 1 turns but the question has 3/);
    const call = loadError((files) =>
      files.set(
        "possible_answer/BFCL_v4_multi_turn_base.json",
        '{"id": "multi_turn_base_0", "ground_truth": [["add(amount=)"], [], []]}\n{"id": "multi_turn_base_1", "ground_truth": [[], []]}\n',
      ),
    );
    expect(call.message).toMatch(/:1: ground_truth\[0\]\[0\] of multi_turn_base_0 is not a call/);
    const count = loadError((files) =>
      files.set(
        "possible_answer/BFCL_v4_multi_turn_base.json",
        '{"id": "multi_turn_base_0", "ground_truth": [[], [], []]}\n',
      ),
    );
    expect(count.message).toMatch(/1 ground-truth entries for 2 questions/);
  });

  it("parses category lists and refuses unknown ones", () => {
    expect(parseCategories("base, multi_turn_miss_func,base")).toEqual(["base", "miss_func"]);
    expect(() => parseCategories("base,web")).toThrow(/categories: unknown category "web"/);
    expect(() => parseCategories("")).toThrow(/at least one category/);
  });
});
