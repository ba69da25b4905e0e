// tools.expected.json: synthetic docs and what upstream's convert_to_tool (OpenAI completions, GORILLA_TO_OPENAPI)
// makes of them after the language hint, printed by upstream's own functions under Python 3.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadEntries } from "../../../../src/envs/bfcl/load/entries.js";
import {
  entryFunctions,
  LANGUAGE_HINT,
  loadFuncDocs,
  offeredAt,
  toolSpec,
  type FuncDoc,
} from "../../../../src/envs/bfcl/load/func-docs.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import type { PyDict } from "../../../../src/envs/bfcl/py/value.js";
import { writeFakeDataDir } from "../fixtures.js";

const FILES = { Counter: "counter.json", Notes: "notes.json" };

describe("offered functions", () => {
  const dir = writeFakeDataDir();
  const docs = loadFuncDocs(dir, ["Counter", "Notes"], FILES);
  const [base0] = loadEntries(dir, ["base"]);
  const [missFunc] = loadEntries(dir, ["miss_func"]);

  it("offers the involved classes' docs in order, with the language hint, minus excluded functions", () => {
    const functions = entryFunctions(base0!, docs);
    expect(offeredAt(functions, 0).map((doc) => doc.name)).toEqual(["add", "get", "write", "read"]);
    expect(offeredAt(functions, 0)[0]?.doc.get("description")).toBe(`Add to the counter.${LANGUAGE_HINT}`);
    expect([...functions.allNames]).toEqual(["add", "get", "write", "read", "delete"]);
    expect(docs.get("Counter")?.[0]?.doc.get("description")).toBe("Add to the counter.");
  });

  it("holds miss_func functions out until their turn, then appends them without the hint (as upstream)", () => {
    const functions = entryFunctions(missFunc!, docs);
    expect(offeredAt(functions, 1).map((doc) => doc.name)).toEqual(["add", "get", "write", "delete"]);
    const later = offeredAt(functions, 2);
    expect(later.map((doc) => doc.name)).toEqual(["add", "get", "write", "delete", "read"]);
    expect(later[4]?.doc.get("description")).toBe("Read a note.");
  });

  it("names a missing doc file", () => {
    expect(() => loadFuncDocs(dir, ["Ghost"], FILES)).toThrow(/no function doc file is known for class "Ghost"/);
    expect(() => loadFuncDocs(dir, ["Counter"], { Counter: "nope.json" })).toThrow(
      /func_doc\/nope\.json: file not found/,
    );
  });
});

describe("toolSpec", () => {
  it("converts docs as upstream's convert_to_tool does, key order included", () => {
    const fixture = JSON.parse(readFileSync(new URL("./tools.expected.json", import.meta.url), "utf8")) as {
      input: unknown[];
      expected: unknown[];
    };
    const specs = fixture.input.map((raw) => {
      const doc = parsePyJson(JSON.stringify(raw)) as PyDict;
      doc.set("description", `${String(doc.get("description"))}${LANGUAGE_HINT}`);
      const funcDoc: FuncDoc = { name: String(doc.get("name")), className: "X", doc };
      return toolSpec(funcDoc);
    });
    expect(JSON.stringify(specs)).toBe(JSON.stringify(fixture.expected));
  });
});
