// The `exclude` field: SEED:TASKS (by content), SEED:TASKS:structure, a held-out.json with or without "by", or
// {seed, tasks, by?}; stored as {seed, tasks} by content (as before sets had a "by") and with "by" by structure, so
// that configs stored before read back to the same set.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { heldOutFileText, heldOutSetField, readHeldOutText } from "../../src/eval/held-out-field.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-held-out-field-"));
const field = heldOutSetField();
/** The message a value is refused with. */
const problem = (input: string | Record<string, unknown>): string | undefined =>
  z.safeDecode(field, input).error?.issues[0]?.message;

describe("the exclude field", () => {
  it("reads SEED:TASKS by content and SEED:TASKS:BY, in any case", () => {
    expect(z.decode(field, "7:200")).toEqual({ seed: 7, tasks: 200, by: "content" });
    expect(z.decode(field, " 7 : 200 : structure ")).toEqual({ seed: 7, tasks: 200, by: "structure" });
    expect(z.decode(field, "7:200:Structure")).toEqual({ seed: 7, tasks: 200, by: "structure" });
    expect(z.decode(field, "7:200:content")).toEqual({ seed: 7, tasks: 200, by: "content" });
    expect(readHeldOutText("7:200:layout")).toEqual({ set: { seed: 7, tasks: 200, by: "layout" } });
    expect(problem("7:200:layout")).toMatch(/^in "7:200:layout", by: Invalid option/);
    expect(problem("7")).toMatch(/^expected SEED:TASKS, e\.g\. 7:200 .*SEED:TASKS:structure/);
    expect(problem("7:200:")).toMatch(/^expected SEED:TASKS/);
  });

  it("reads a held-out.json's by, a file without one as content, and writes by into the file", () => {
    const file = join(dir, "held-out.json");
    writeFileSync(file, heldOutFileText({ seed: 7, tasks: 3, by: "structure" }, ["a", "b", "c"]));
    expect(JSON.parse(heldOutFileText({ seed: 7, tasks: 3 }, ["a", "b", "c"]))).toEqual({
      seed: 7,
      tasks: 3,
      by: "content",
      ids: ["a", "b", "c"],
    });
    expect(z.decode(field, file)).toEqual({ seed: 7, tasks: 3, by: "structure" });
    expect(z.decode(field, dir)).toEqual({ seed: 7, tasks: 3, by: "structure" });
    writeFileSync(file, JSON.stringify({ seed: 7, tasks: 3, ids: ["a", "b", "c"] }));
    expect(z.decode(field, file)).toEqual({ seed: 7, tasks: 3, by: "content" });
  });

  it("stores a set by content as {seed, tasks} and one by structure with its by; stored sets read back", () => {
    expect(z.encode(field, { seed: 7, tasks: 200, by: "content" })).toEqual({ seed: 7, tasks: 200 });
    expect(z.encode(field, { seed: 7, tasks: 200, by: "structure" })).toEqual({ seed: 7, tasks: 200, by: "structure" });
    expect(z.decode(field, { seed: 7, tasks: 200 })).toEqual({ seed: 7, tasks: 200, by: "content" });
    expect(z.decode(field, { seed: 7, tasks: 200, by: "structure" })).toEqual({ seed: 7, tasks: 200, by: "structure" });
    expect(problem({ seed: 7, tasks: 200, by: "layout" })).toMatch(/^Invalid option/);
  });
});
