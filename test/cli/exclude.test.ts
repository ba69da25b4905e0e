// --exclude on the command line (eval, sft, train): SEED:TASKS or a held-out.json (or its folder) leaves that
// held-out set out by content, SEED:TASKS:structure every task of its structures; the stored config holds
// {seed, tasks} ({seed, tasks, by} by structure) and reads back (show, --resume) to the same set; a bad value fails
// before any work, naming --exclude, with exit code 2. --distinct structure draws tasks of distinct structures.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEnv } from "../../src/envs/registry.js";
import { heldOutFileText } from "../../src/eval/held-out-field.js";
import { heldOutTaskIds, heldOutTasks } from "../../src/eval/tasks.js";
import { openStore } from "../../src/store/open.js";
import { loadTasks } from "../../src/store/runs.js";
import { readTrainSteps } from "../../src/store/train-log.js";
import { cli } from "./helpers.js";
import { storedIds } from "../helpers/stored-ids.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-exclude-"));
const model = [
  "--model",
  "layers=1",
  "--model",
  "dModel=32",
  "--model",
  "heads=2",
  "--model",
  "hiddenSize=64",
  "--model",
  "contextLength=96",
];
const heldOut = { seed: 9, tasks: 40 };
// Generated 4x4 frozenlake maps: 150 tasks of seed 1 would hold many of the held-out set's 40.
const held = heldOutTaskIds(createEnv("frozenlake"), heldOut);

/** A study folder as `budgetrl reproduce` leaves it: held-out.json with the set and its ids. */
function studyFolder(name: string): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "held-out.json"), heldOutFileText(heldOut, [...held]));
  return folder;
}

const evalArgs = (db: string, run: string): string[] => [
  "eval",
  "--env",
  "frozenlake",
  "--policy",
  "oracle",
  "--tasks",
  "150",
  "--samples",
  "1",
  "--bootstrap",
  "0",
  "--db",
  db,
  "--run",
  run,
  "--no-progress",
];

describe("--exclude", () => {
  it("takes SEED:TASKS, a held-out.json or its folder on eval, stores {seed, tasks}, and reads it back on show and resume", async () => {
    const db = join(dir, "eval.db");
    const plain = await cli(...evalArgs(db, "plain"));
    expect(plain.code).toBe(0);
    expect((await storedIds(db, "plain")).filter((id) => held.has(id)).length).toBeGreaterThan(10);
    const folder = studyFolder("study");
    for (const [run, value] of [
      ["text", "9:40"],
      ["file", join(folder, "held-out.json")],
      ["folder", folder],
    ] as const) {
      const result = await cli(...evalArgs(db, run), "--exclude", value);
      expect(result.code).toBe(0);
      const ids = await storedIds(db, run);
      expect(new Set(ids).size).toBe(150);
      expect(ids.filter((id) => held.has(id))).toEqual([]);
      expect(ids).toEqual(await storedIds(db, "text"));
      const shown = await cli("show", run, "--db", db, "--json");
      expect((JSON.parse(shown.stdout) as { config: { exclude: unknown } }).config.exclude).toEqual(heldOut);
    }
    // --resume decodes the stored config again (nothing to do here: the run is complete).
    expect((await cli("eval", "--resume", "--db", db, "--run", "file", "--no-progress")).code).toBe(0);
  }, 60_000);

  it("takes SEED:TASKS:structure and --distinct structure on eval, stores both, and leaves out held-out structures", async () => {
    const db = join(dir, "structure.db");
    const env = createEnv("frozenlake");
    const structures = heldOutTasks(env, { ...heldOut, by: "structure" }).structures;
    const result = await cli(...evalArgs(db, "structure"), "--exclude", "9:40:structure", "--distinct", "structure");
    expect(result.code).toBe(0);
    const shown = JSON.parse((await cli("show", "structure", "--db", db, "--json")).stdout) as {
      config: { exclude: unknown; distinct: unknown };
    };
    expect(shown.config).toMatchObject({ exclude: { ...heldOut, by: "structure" }, distinct: "structure" });
    const store = await openStore(db, { readonly: true });
    const tasks = (await loadTasks(store, "structure")).map((row) => env.tasks.decode(row.task));
    await store.close();
    expect(tasks).toHaveLength(150);
    expect(new Set(tasks.map((task) => env.tasks.structureKey(task))).size).toBe(150);
    expect(tasks.filter((task) => structures.has(env.tasks.structureKey(task)))).toEqual([]);
    const help = await cli("eval", "--help");
    expect(help.stdout).toMatch(/--distinct .*content, or structure/s);
    expect(help.stdout).toContain("SEED:TASKS:structure");
  }, 60_000);

  it("refuses a bad value before any work, naming --exclude, on eval, sft and train", async () => {
    const notJson = join(dir, "not-json.json");
    writeFileSync(notJson, "{ seed: 9 }");
    const notSet = join(dir, "not-a-set.json");
    writeFileSync(notSet, JSON.stringify({ ids: ["a"] }));
    const cases: [string, RegExp][] = [
      ["9", /--exclude: expected SEED:TASKS, e\.g\. 7:200/],
      ["9:", /--exclude: expected SEED:TASKS/],
      ["9:0", /--exclude: in "9:0", tasks: Too small/],
      [
        join(dir, "missing.json"),
        /--exclude: ".*missing\.json" is neither SEED:TASKS \(e\.g\. 7:200\) nor a held-out\.json that can be read \(ENOENT\)/,
      ],
      [join(dir, "empty-folder"), /--exclude: ".*empty-folder" is neither SEED:TASKS/],
      [notJson, /--exclude: .*not-json\.json is not JSON/],
      [notSet, /--exclude: .*not-a-set\.json is not a held-out set/],
    ];
    mkdirSync(join(dir, "empty-folder"), { recursive: true });
    for (const [value, message] of cases) {
      const db = join(dir, "refused.db");
      const evaluated = await cli(...evalArgs(db, "refused"), "--exclude", value);
      expect([evaluated.code, evaluated.stderr]).toEqual([2, expect.stringMatching(message)]);
      expect(existsSync(db)).toBe(false);
      const out = join(dir, "refused-out");
      const sft = await cli(
        "sft",
        "--env",
        "frozenlake",
        "--tasks",
        "4",
        "--steps",
        "1",
        ...model,
        "--out",
        out,
        "--exclude",
        value,
        "--no-progress",
      );
      expect([sft.code, sft.stderr]).toEqual([2, expect.stringMatching(message)]);
      const trained = await cli(
        "train",
        "--env",
        "frozenlake",
        "--steps",
        "1",
        ...model,
        "--out",
        out,
        "--exclude",
        value,
        "--no-progress",
      );
      expect([trained.code, trained.stderr]).toEqual([2, expect.stringMatching(message)]);
      expect(existsSync(out)).toBe(false);
    }
  }, 60_000);

  it("leaves the set out of sft demonstrations and of training tasks, stored as {seed, tasks}", async () => {
    const base = join(dir, "base");
    const sft = await cli(
      "sft",
      "--env",
      "frozenlake",
      "--policy",
      "oracle",
      "--tasks",
      "100",
      "--samples",
      "1",
      "--steps",
      "2",
      "--batch-size",
      "4",
      "--max-new-tokens",
      "4",
      ...model,
      "--out",
      base,
      "--exclude",
      "9:40",
      "--no-progress",
    );
    expect(sft.code).toBe(0);
    expect((JSON.parse(readFileSync(join(base, "sft.json"), "utf8")) as { exclude: unknown }).exclude).toEqual(heldOut);
    const demos = await storedIds(join(base, "demos.db"), "demonstrations/announced");
    expect(new Set(demos).size).toBe(100);
    expect(demos.filter((id) => held.has(id))).toEqual([]);
    const out = join(dir, "rl");
    const args = [
      "train",
      "--env",
      "frozenlake",
      "--init",
      base,
      "--steps",
      "3",
      "--tasks-per-step",
      "16",
      "--group",
      "2",
      "--eval-every",
      "0",
      "--max-new-tokens",
      "4",
      "--out",
      out,
      "--no-progress",
    ];
    const trained = await cli(...args, "--exclude", studyFolder("study-for-rl"));
    expect(trained.code).toBe(0);
    expect((JSON.parse(readFileSync(join(out, "config.json"), "utf8")) as { exclude: unknown }).exclude).toEqual(
      heldOut,
    );
    const store = await openStore(join(out, "train.db"), { readonly: true });
    const steps = await readTrainSteps(store, "train");
    await store.close();
    const taskIds = steps.map(({ metrics }) => (metrics as { taskIds: string[] }).taskIds);
    expect(taskIds.flat()).toHaveLength(48);
    expect(taskIds.flat().filter((id) => held.has(id))).toEqual([]);
    // A step's tasks are distinct.
    for (const ids of taskIds) expect(new Set(ids).size).toBe(16);
  }, 120_000);
});
