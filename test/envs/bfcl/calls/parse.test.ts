// The Python call parser: literals, escapes, lists of calls, errors with positions, fuzzing, all ground truth.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCall, formatCalls } from "../../../../src/envs/bfcl/calls/format.js";
import { parseCall, parseCalls } from "../../../../src/envs/bfcl/calls/parse.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { pyEquals, pyTuple, type PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { BUNDLED_BFCL_DATA_DIR } from "../../../../src/envs/bfcl/load/bundled-data.js";

function one(text: string) {
  const verdict = parseCall(text);
  if (!verdict.valid) throw new Error(`${text}: ${verdict.message}`);
  return verdict.call;
}

describe("parseCalls", () => {
  it("parses keyword and positional arguments of every literal type", () => {
    const call = one(
      `f(1, -2.5, 'a"b', "it's", True, None, [1, (2,)], {'k': None, 3: [False]}, x=1e3, y=(), z={1, 2})`,
    );
    expect(call.name).toBe("f");
    expect(call.args.map(pyRepr)).toEqual([
      "1",
      "-2.5",
      `'a"b'`,
      `"it's"`,
      "True",
      "None",
      "[1, (2,)]",
      "{'k': None, 3: [False]}",
    ]);
    expect(call.kwargs.map(([key, value]) => `${key}=${pyRepr(value)}`)).toEqual(["x=1000.0", "y=()", "z={1, 2}"]);
  });

  it("handles escapes, raw strings, triple quotes and adjacent literals", () => {
    expect(
      one(`f(a='x\\ny\\t\\'\\\\', b=r'c:\\d', c='''multi\nline''', d='ab' "cd", e='\\u00e9\\x41')`).kwargs.map(
        ([, v]) => v,
      ),
    ).toEqual(["x\ny\t'\\", "c:\\d", "multi\nline", "abcd", "éA"]);
  });

  it("parses lists of calls, empty lists and whitespace", () => {
    const verdict = parseCalls(" [ cd(folder='a') ,\n ls(a=True), ] ");
    expect(verdict.valid && verdict.calls.map((call) => call.name)).toEqual(["cd", "ls"]);
    const empty = parseCalls("[]");
    expect(empty.valid && empty.calls).toEqual([]);
  });

  it("keeps (x) as x and distinguishes ints from floats", () => {
    const call = one("f((5), 5., .5, 0x1F, 1_000)");
    expect(call.args.map(pyRepr)).toEqual(["5", "5.0", "0.5", "31", "1000"]);
    expect(pyEquals(one("f((1, 2))").args[0] as PyValue, pyTuple([1, 2]))).toBe(true);
  });

  it("rejects malformed input with a message and a position", () => {
    const bad = [
      "f(",
      "f(a=)",
      "f(a=1, 2)",
      "f(a=1, a=2)",
      "f(x)",
      "f('abc)",
      "[f(), g(]",
      "f() extra",
      "",
      "1(2)",
      "f(a=1 b=2)",
      "f(__import__('os'))",
      "f(07)",
    ];
    for (const text of bad) {
      const verdict = parseCalls(text);
      expect(verdict.valid, text).toBe(false);
      if (!verdict.valid) {
        expect(verdict.message.length).toBeGreaterThan(5);
        expect(verdict.position).toBeGreaterThanOrEqual(0);
      }
    }
    const nested = parseCalls(`f(${"[".repeat(5000)}${"]".repeat(5000)})`);
    expect(nested.valid).toBe(false);
  });

  it("round-trips formatted calls", () => {
    const text = `f(1, 'a', k=[1.5, None], t=(1,), d={'x': {2: True}})`;
    const call = one(text);
    expect(formatCall(call)).toBe(text);
    expect(formatCalls([call, call])).toBe(`[${text}, ${text}]`);
  });

  it("never throws on 10,000 fuzzed strings", () => {
    const pieces = fc.constantFrom(
      "f(",
      ")",
      "[",
      "]",
      "(",
      "{",
      "}",
      ",",
      "=",
      "'",
      '"',
      "\\",
      "a",
      "1",
      ".",
      "e",
      "-",
      "True",
      "None",
      ":",
      " ",
      "\n",
      "'''",
      "r'",
      "0x",
      "_",
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join("")),
        ),
        (text) => {
          const verdict = parseCalls(text);
          expect(typeof verdict.valid).toBe("boolean");
        },
      ),
      { numRuns: 10_000, seed: 7 },
    );
  });
});

describe("ground truth call strings", () => {
  it("parses and round-trips every ground-truth call of all four categories", () => {
    let count = 0;
    for (const category of ["base", "miss_func", "miss_param", "long_context"]) {
      const lines = readFileSync(
        resolve(BUNDLED_BFCL_DATA_DIR, `possible_answer/BFCL_v4_multi_turn_${category}.json`),
        "utf8",
      )
        .split("\n")
        .filter(Boolean);
      for (const line of lines) {
        const entry = JSON.parse(line) as { ground_truth: string[][] };
        for (const turn of entry.ground_truth) {
          for (const text of turn) {
            const call = one(text);
            const again = one(formatCall(call));
            expect(again.name).toBe(call.name);
            expect(
              pyEquals(again.args as PyValue[], call.args as PyValue[]) &&
                pyEquals(new Map(again.kwargs), new Map(call.kwargs)),
            ).toBe(true);
            expect(formatCall(again)).toBe(formatCall(call));
            count++;
          }
        }
      }
    }
    expect(count).toBeGreaterThan(3000);
  });
});
