import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileOutputProblem, folderOutputProblem } from "../../src/core/output-path.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-output-"));
const file = join(dir, "file");
writeFileSync(file, "");
mkdirSync(join(dir, "folder"));

describe("output paths", () => {
  it("takes a folder that exists or can be made, and says why one cannot", () => {
    expect(folderOutputProblem(join(dir, "folder"))).toBeUndefined();
    expect(folderOutputProblem(join(dir, "new", "deeper"))).toBeUndefined();
    expect(folderOutputProblem("relative-folder-that-is-not-there")).toBeUndefined();
    expect(folderOutputProblem(file)).toBe(`${file} is a file, not a folder`);
    expect(folderOutputProblem(join(file, "a", "b"))).toBe(
      `cannot make ${join(file, "a", "b")}: ${file} is a file, not a folder`,
    );
    expect(folderOutputProblem("")).toBe("is empty: give a folder");
  });

  it("takes a file whose folder exists, and says why one cannot be written", () => {
    expect(fileOutputProblem(join(dir, "new.html"))).toBeUndefined();
    expect(fileOutputProblem(file)).toBeUndefined();
    expect(fileOutputProblem("relative.html")).toBeUndefined();
    expect(fileOutputProblem(join(dir, "missing", "r.html"))).toBe(
      `the folder ${join(dir, "missing")} does not exist: create it first, or write elsewhere`,
    );
    expect(fileOutputProblem(join(file, "r.html"))).toBe(`${file} is a file, not a folder`);
    expect(fileOutputProblem(join(dir, "folder"))).toBe(`${join(dir, "folder")} is a folder: give a file name`);
    expect(fileOutputProblem("")).toBe("is empty: give a file name");
  });
});
