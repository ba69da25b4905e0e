import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-tasks-"));

describe("budgetrl eval --tasks-file", () => {
  it("plays user-supplied sokoban levels and frozenlake maps", async () => {
    const levels = join(dir, "levels.txt");
    writeFileSync(levels, "; 1\n#####\n#@$.#\n#####\n\n; 2\n######\n#@ $.#\n######\n");
    const sokoban = await cli("eval", "--env", "sokoban", "--tasks-file", levels, "--policy", "oracle", "--samples", "1", "--budget", "1,2", "--db", join(dir, "a.db"), "--no-progress", "--bootstrap", "0");
    expect(sokoban.code).toBe(0);
    // level 1 needs 1 push, level 2 needs 2 moves: at T = 1 only level 1 succeeds.
    expect(sokoban.stdout).toMatch(/\n1\s+0\.500\s+1\.000/);
    const maps = join(dir, "maps.txt");
    writeFileSync(maps, "SFG\nFHF\n\n4x4\n");
    const lake = await cli("eval", "--env", "frozenlake", "--tasks-file", maps, "--policy", "oracle", "--samples", "2", "--budget", "100%", "--db", join(dir, "b.db"), "--no-progress", "--bootstrap", "0");
    expect(lake.code).toBe(0);
    expect(lake.stdout).toContain("2 tasks x 2 samples");
    expect(lake.stdout).toMatch(/\n1\s+1\.000/);
    const bad = join(dir, "bad.txt");
    writeFileSync(bad, "#####\n#@$$.#\n#####\n");
    const refused = await cli("eval", "--env", "sokoban", "--tasks-file", bad, "--db", join(dir, "c.db"), "--no-progress");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/tasks-file: .*bad\.txt/);
  });
});
