// Reading the data dir's JSON and JSON Lines files: origins, Python's int/float split, errors naming file and line.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DataError } from "../../../../src/core/errors.js";
import { dictAt, readJsonFile, readJsonLinesFile, stringListAt } from "../../../../src/envs/bfcl/load/json-files.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "bfcl-files-")), name);
  writeFileSync(path, text);
  return path;
}

describe("data files", () => {
  it("reads JSON Lines with origins, skipping blank lines, keeping ints and floats apart", () => {
    const path = file("a.json", '{"x": 1}\n\n{"x": 1.0}\n');
    const rows = readJsonLinesFile(path);
    expect(rows.map((row) => [pyRepr(row.value), row.origin.line])).toEqual([
      ["{'x': 1}", 1],
      ["{'x': 1.0}", 3],
    ]);
  });

  it("names the file and line of bad JSON, and missing files", () => {
    expect(() => readJsonLinesFile(file("b.json", '{"x": 1}\n{"x": }\n'))).toThrow(/b\.json:2: malformed JSON/);
    expect(() => readJsonFile(file("c.json", '{\n"x":\n\n}'))).toThrow(/c\.json:4: malformed JSON/);
    expect(() => readJsonFile("/nonexistent/bfcl/d.json")).toThrow(DataError);
    expect(() => readJsonFile(tmpdir())).toThrow(/is a directory/);
  });

  it("checks shapes with the field named", () => {
    const origin = { file: "e.json", line: 4 };
    expect(() => dictAt(origin, "initial_config", parsePyJson("[1]"))).toThrow(
      /e\.json:4: initial_config must be an object, found a list/,
    );
    expect(() => stringListAt(origin, "path", parsePyJson('["a", 2]'))).toThrow(
      /e\.json:4: path\[1\] must be a string, found a int/,
    );
    expect(() => dictAt(origin, "x", undefined)).toThrow(/must be an object, found nothing/);
  });
});
