// `budgetrl bfcl run`, and `budgetrl eval --env bfcl`, on the data bundled with budgetrl: no --data-dir needed on a
// fresh clone; --data-dir still overrides, and a folder without the data is named in the error.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-bfcl-"));

describe("budgetrl bfcl run", () => {
  it("runs an entry's ground truth on the bundled data and prints results and state as JSON", async () => {
    const result = await cli("bfcl", "run", "--entry", "multi_turn_base_0");
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as {
      entry: string;
      state: Record<string, unknown>;
      turns: { call: string; result: string }[][];
    };
    expect(output.entry).toBe("multi_turn_base_0");
    expect(Object.keys(output.state)).toEqual(["GorillaFileSystem", "TwitterAPI"]);
    expect(output.turns.map((turn) => turn.length)).toEqual([3, 2, 1, 4]);
    expect(output.turns.flat().every(({ result: text }) => !text.startsWith("Error during execution"))).toBe(true);
  });

  it("reads another data dir when --data-dir is given, naming what is missing there", async () => {
    const result = await cli("bfcl", "run", "--data-dir", join(dir, "nowhere"), "--entry", "multi_turn_base_0");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(join(dir, "nowhere", "data", "BFCL_v4_multi_turn_base.json"));
    expect(result.stderr).toContain("file not found");
  });
});

describe("budgetrl eval --env bfcl", () => {
  it("evaluates on the bundled data without --data-dir", async () => {
    const result = await cli(
      "eval",
      "--env",
      "bfcl",
      "--category",
      "base",
      "--policy",
      "replay",
      "--tasks",
      "3",
      "--samples",
      "1",
      "--k",
      "1",
      "--budget",
      "100%",
      "--budget-scope",
      "user-turn",
      "--db",
      join(dir, "bfcl.db"),
      "--run",
      "bundled",
      "--no-progress",
    );
    // Only the start line on stderr.
    expect(result.stderr).toMatch(/^run bundled: 3 episodes, stored in .* as they finish; Ctrl-C stops\n$/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("run bundled: bfcl | policy replay | 3 tasks x 1 samples");
    expect(result.stdout).toMatch(/\n1\s+1\.000 /);
  });
});
