// default_state.json and long_context.json: Python's Ellipsis restored, upstream key order, missing files named.
import { describe, expect, it } from "vitest";
import { loadConstants, restoreEllipsis } from "../../../../src/envs/bfcl/load/module-constants.js";
import { PY_ELLIPSIS } from "../../../../src/envs/bfcl/py/ellipsis.js";
import { pyRepr, pyStr } from "../../../../src/envs/bfcl/py/format.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import { pyEquals } from "../../../../src/envs/bfcl/py/value.js";
import { writeFakeDataDir } from "../fixtures.js";

describe("constants", () => {
  it("restores Python's Ellipsis from its marker, printing as upstream", () => {
    const value = restoreEllipsis(
      parsePyJson('{"a": ["X", {"__python_ellipsis__": true}], "b": {"__python_ellipsis__": true, "other": 1}}'),
    );
    expect(pyRepr(value)).toBe("{'a': ['X', Ellipsis], 'b': {'__python_ellipsis__': True, 'other': 1}}");
    expect(pyStr(PY_ELLIPSIS)).toBe("Ellipsis");
    expect(pyEquals(PY_ELLIPSIS, PY_ELLIPSIS)).toBe(true);
    expect(pyEquals(PY_ELLIPSIS, "...")).toBe(false);
  });

  it("loads default_state.json and long_context.json in upstream key order, naming a missing file", () => {
    const constants = loadConstants(writeFakeDataDir());
    expect(pyRepr(constants.longContext)).toBe("{'WATCH_LIST_EXTENSION': ['A', Ellipsis]}");
    expect(pyRepr(constants.defaultState)).toBe("{'counter': {'count': 0}}");
    const sorted = loadConstants(
      writeFakeDataDir((files) =>
        files.set(
          "default_state.json",
          '{"ticket_api": {"current_user": null, "ticket_counter": 1, "ticket_queue": []}}',
        ),
      ),
    );
    expect(pyRepr(sorted.defaultState)).toBe(
      "{'ticket_api': {'ticket_queue': [], 'ticket_counter': 1, 'current_user': None}}",
    );
    expect(() => loadConstants(writeFakeDataDir((files) => files.delete("long_context.json")))).toThrow(
      /long_context\.json: file not found/,
    );
    expect(() =>
      loadConstants(writeFakeDataDir((files) => files.set("default_state.json", '{\n "a": 1,\n "b": ]\n}'))),
    ).toThrow(/default_state\.json:3: malformed JSON/);
  });
});
