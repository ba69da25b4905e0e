import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-tasks-"));

describe("budgetrl eval --tasks-file", () => {
  it("plays user-supplied sokoban levels and frozenlake maps", async () => {
    const levels = join(dir, "levels.txt");
    writeFileSync(levels, "; 1\n#####\n#@$.#\n#####\n\n; 2\n######\n#@ $.#\n######\n");
    const sokoban = await cli(
      "eval",
      "--env",
      "sokoban",
      "--tasks-file",
      levels,
      "--policy",
      "oracle",
      "--samples",
      "1",
      "--budget",
      "1,2",
      "--db",
      join(dir, "a.db"),
      "--no-progress",
      "--bootstrap",
      "0",
    );
    expect(sokoban.code).toBe(0);
    // level 1 needs 1 push, level 2 needs 2 moves: at T = 1 only level 1 succeeds.
    expect(sokoban.stdout).toMatch(/\n1\s+0\.500\s+1\.000/);
    const maps = join(dir, "maps.txt");
    writeFileSync(maps, "SFG\nFHF\n\n4x4\n");
    const lake = await cli(
      "eval",
      "--env",
      "frozenlake",
      "--tasks-file",
      maps,
      "--policy",
      "oracle",
      "--samples",
      "2",
      "--budget",
      "100%",
      "--db",
      join(dir, "b.db"),
      "--no-progress",
      "--bootstrap",
      "0",
    );
    expect(lake.code).toBe(0);
    expect(lake.stdout).toContain("2 tasks x 2 samples");
    expect(lake.stdout).toMatch(/\n1\s+1\.000/);
    const bad = join(dir, "bad.txt");
    writeFileSync(bad, "#####\n#@$$.#\n#####\n");
    const refused = await cli(
      "eval",
      "--env",
      "sokoban",
      "--tasks-file",
      bad,
      "--db",
      join(dir, "c.db"),
      "--no-progress",
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/tasks-file: .*bad\.txt/);
  });

  it("refuses a sokoban level that cannot be solved before any work, naming it; one past the oracle's state cap is said to be that", async () => {
    const levels = join(dir, "unsolvable.txt");
    // Level 2: the box can only go right, into a dead end; the goal is below the player.
    writeFileSync(levels, "; 1\n#####\n#@$.#\n#####\n\n; 2\n#####\n#@$ #\n#. ##\n#####\n");
    const db = join(dir, "unsolvable.db");
    const refused = await cli("eval", "--env", "sokoban", "--tasks-file", levels, "--db", db, "--no-progress");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `budgetrl eval: tasks-file: task 2 of ${levels} cannot be solved: the BFS oracle searched all 7 states reachable from the start and in none is every box on a goal\n`,
    );
    expect(refused.stdout).toBe("");
    expect(existsSync(db)).toBe(false);
    // The first level alone is played.
    expect(
      (
        await cli(
          "eval",
          "--env",
          "sokoban",
          "--tasks-file",
          levels,
          "--tasks",
          "1",
          "--samples",
          "1",
          "--db",
          db,
          "--no-progress",
          "--bootstrap",
          "0",
        )
      ).code,
    ).toBe(0);

    const large = join(dir, "large.txt");
    const rows = ["#".repeat(14), ...Array.from({ length: 10 }, () => `#${" ".repeat(12)}#`), "#".repeat(14)].map(
      (row) => [...row],
    );
    for (const [row, column, char] of [
      [1, 1, "@"],
      [3, 3, "$"],
      [5, 5, "$"],
      [7, 7, "$"],
      [9, 9, "."],
      [9, 10, "."],
      [9, 11, "."],
    ] as const)
      rows[row]![column] = char;
    writeFileSync(large, `${rows.map((row) => row.join("")).join("\n")}\n`);
    const capped = await cli(
      "eval",
      "--env",
      "sokoban",
      "--env-opt",
      "maxStates=1000",
      "--tasks-file",
      large,
      "--db",
      join(dir, "large.db"),
      "--no-progress",
    );
    expect(capped.code).toBe(2);
    expect(capped.stderr).toBe(
      `budgetrl eval: tasks-file: task 1 of ${large} has more than 1000 reachable states, past what the BFS oracle builds (sokoban option maxStates), so whether it can be solved is not known: raise it (--env-opt maxStates=N, at most 50000000) or leave the level out\n`,
    );
    expect(capped.stderr).not.toMatch(/cannot be solved/);
    expect(existsSync(join(dir, "large.db"))).toBe(false);
  });
});
