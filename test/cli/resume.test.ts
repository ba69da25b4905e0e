import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { argvOf, cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-resume-"));
const quiet = ["--no-progress", "--bootstrap", "0"];

describe("--resume and the hints that lead to it", () => {
  it("reports the flags --resume ignores, and keeps the stored config", async () => {
    const db = join(dir, "flags.db");
    expect((await cli("eval", "--tasks", "3", "--samples", "2", "--run", "r", "--db", db, ...quiet)).code).toBe(0);
    const resumed = await cli(
      "eval",
      "--resume",
      "--run",
      "r",
      "--db",
      db,
      "--tasks",
      "50",
      "--samples",
      "4",
      "--concurrency",
      "2",
      ...quiet,
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(
      "budgetrl eval: --tasks, --samples, --bootstrap ignored with --resume: the run continues with its stored settings",
    );
    expect(resumed.stdout).toContain("3 tasks x 2 samples");
    const train = await cli("train", "--out", join(dir, "never"), "--resume", "--steps", "10");
    expect(train.stderr).toContain("budgetrl train: --steps ignored with --resume");
    expect(train.stderr).toMatch(/nothing to resume/);
  });

  it("prints, for a run name already taken, a resume command that works as printed", async () => {
    const db = join(dir, "taken.db");
    expect((await cli("eval", "--tasks", "2", "--samples", "1", "--run", "mine", "--db", db, ...quiet)).code).toBe(0);
    const again = await cli("eval", "--tasks", "2", "--samples", "1", "--run", "mine", "--db", db, ...quiet);
    expect(again.code).toBe(2);
    const hint = /continue it with: (budgetrl .*)\n/.exec(again.stderr)?.[1] ?? "";
    expect(hint).toBe(`budgetrl eval --resume --run mine --db ${db}`);
    expect((await cli(...argvOf(hint))).code).toBe(0);
  });

  it("quotes paths in printed commands so that they still work", async () => {
    const spaced = mkdtempSync(join(tmpdir(), "budgetrl resume it's "));
    const db = join(spaced, "my runs.db");
    expect((await cli("eval", "--tasks", "2", "--samples", "1", "--run", "q", "--db", db, ...quiet)).code).toBe(0);
    const shown = await cli("eval", "--tasks", "2", "--samples", "1", "--run", "q", "--db", db, ...quiet);
    const hint = /continue it with: (budgetrl .*)\n/.exec(shown.stderr)?.[1] ?? "";
    expect(hint).toContain("'");
    expect(argvOf(hint)).toEqual(["eval", "--resume", "--run", "q", "--db", db]);
  });

  it("refuses an absurd budget with a clear message instead of planning it", async () => {
    const result = await cli("eval", "--budget", "9999999", "--db", join(dir, "absurd.db"), ...quiet);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--budget: a turn budget of 9999999 is above the largest, 10000 turns/);
    expect((await cli("eval", "--budget", "5000%", "--db", join(dir, "absurd.db"), ...quiet)).stderr).toMatch(
      /--budget: a budget of 5000% is above the largest, 1000% of the reference budget/,
    );
  });
});
