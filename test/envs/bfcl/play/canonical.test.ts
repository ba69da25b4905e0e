// Canonical calls: positional arguments bound to names, keywords in parameter order, tool-call JSON arguments.
import { describe, expect, it } from "vitest";
import { canonicalCall, canonicalText, toolArguments } from "../../../../src/envs/bfcl/play/canonical.js";
import { formatCall } from "../../../../src/envs/bfcl/calls/format.js";
import { parseCall } from "../../../../src/envs/bfcl/calls/parse.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { FAKE_CLASSES } from "../fixtures.js";

function call(text: string) {
  const verdict = parseCall(text);
  if (!verdict.valid) throw new Error(verdict.message);
  return verdict.call;
}

describe("canonical calls", () => {
  it("binds positional arguments and orders keywords by parameter", () => {
    expect(formatCall(canonicalCall(call("write('a', 'b')"), FAKE_CLASSES))).toBe("write(title='a', text='b')");
    expect(formatCall(canonicalCall(call("write(text='b', title='a')"), FAKE_CLASSES))).toBe(
      "write(title='a', text='b')",
    );
    expect(formatCall(canonicalCall(call("write('a', text='b', mood=1)"), FAKE_CLASSES))).toBe(
      "write(title='a', text='b', mood=1)",
    );
    expect(canonicalText([call("add(2)"), call("get()")], FAKE_CLASSES)).toBe("[add(amount=2), get()]");
    expect(canonicalText([], FAKE_CLASSES)).toBe("[]");
  });

  it("leaves calls it cannot bind as written, so that they fail as written", () => {
    for (const text of ["nope(1)", "add(1, 2)", "write('a', title='b')"])
      expect(formatCall(canonicalCall(call(text), FAKE_CLASSES))).toBe(formatCall(call(text)));
  });

  it("writes tool-call arguments as JSON that reads back with ints and floats apart", () => {
    const args = toolArguments(canonicalCall(call("f(a=1, b=2.0, c=(1, 'x'), d={'k': None})"), FAKE_CLASSES));
    expect(args).toBe('{"a": 1, "b": 2.0, "c": [1, "x"], "d": {"k": null}}');
    expect(pyRepr(parsePyJson(args))).toBe("{'a': 1, 'b': 2.0, 'c': [1, 'x'], 'd': {'k': None}}");
  });
});
