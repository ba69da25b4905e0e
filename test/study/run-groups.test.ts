// A study folder's runs, grouped from its own plan (study.json): every evaluation run of every seed, env and model,
// and the ranges (seed null) with their reference policies, each with its kind; a folder whose study.json cannot be
// read is refused in one line naming it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DataError } from "../../src/core/errors.js";
import { encodeStudyConfig, studyConfig } from "../../src/study/config.js";
import { evalRuns, rangeRuns, studyModels } from "../../src/study/plan.js";
import { isStudyFolder, studyFolder } from "../../src/study/run-groups.js";

describe("studyFolder", () => {
  it("groups every planned run by seed, env and model, with its kind", () => {
    const dir = mkdtempSync(join(tmpdir(), "budgetrl-groups-"));
    const config = studyConfig({ preset: "quick" });
    writeFileSync(join(dir, "study.json"), JSON.stringify(encodeStudyConfig(config)));
    expect(isStudyFolder(dir)).toBe(true);
    const { db, groups } = studyFolder(dir);
    expect(db).toBe(join(dir, "study.db"));
    const planned = [...evalRuns(config, studyModels(config, dir)), ...rangeRuns(config)].map((run) => run.run);
    expect([...groups.keys()].sort()).toEqual([...planned].sort());
    const env = config.envs[0]!.env;
    const seed = config.seeds[0]!;
    expect(groups.get(`seed-${seed}/${env}/base/announced`)).toEqual({ seed, env, model: "base", kind: "announced" });
    expect(groups.get(`seed-${seed}/${env}/base/teacher-forced-hidden`)?.kind).toBe("teacher-forced hidden");
    const recovery = [...groups.entries()].find(([run]) => run.includes("/recover-"));
    expect(recovery?.[1].kind).toMatch(/^recovery at turn \d+$/);
    expect(groups.get(`ranges/${env}/oracle/announced`)).toEqual({
      seed: null,
      env,
      model: "oracle",
      kind: "announced",
    });
  });

  it("refuses a folder whose study.json cannot be read, and tells a folder without one", () => {
    const dir = mkdtempSync(join(tmpdir(), "budgetrl-groups-bad-"));
    expect(isStudyFolder(dir)).toBe(false);
    writeFileSync(join(dir, "study.json"), "{ not json");
    expect(() => studyFolder(dir)).toThrow(DataError);
    expect(() => studyFolder(dir)).toThrow(/cannot read the study in .*study\.json/);
  });
});
