import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/eval/evaluate.js";
import { openSqlite } from "../helpers/sqlite.js";
import { cli, spawnCli, textMatching } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-"));

describe("budgetrl eval", () => {
  it("prints the Pass@(K,T) table with intervals and stores the run", async () => {
    const db = join(dir, "table.db");
    const result = await cli("eval", "--env", "sokoban", "--policy", "noisy-oracle:0.3", "--tasks", "5", "--samples", "4", "--k", "1,2,4", "--budget", "25%,100%", "--seed", "1", "--db", db, "--run", "demo", "--no-progress");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("run demo: sokoban | policy noisy-oracle:0.3 | 5 tasks x 4 samples | budget announced");
    expect(result.stdout).toMatch(/K \\ T\s+25%\s+100%\s+AUC/);
    expect(result.stdout).toMatch(/\n1\s+\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]/);
    const shown = await cli("show", "demo", "--db", db);
    expect(shown.stdout).toBe(result.stdout);
    const runs = await cli("runs", "--db", db);
    expect(runs.stdout).toMatch(/demo\s+sokoban\s+noisy-oracle:0.3\s+1\s+40\s/);
    const out = join(dir, "demo.jsonl");
    expect((await cli("export", "demo", "--db", db, "--format", "jsonl", "--out", out)).code).toBe(0);
    const lines = readFileSync(out, "utf8").trim().split("\n");
    expect(lines).toHaveLength(40);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ run: "demo", env: "sokoban", taskIndex: 0, sample: 0 });
  });

  it("makes the same run with no options as evaluate({ env, policy }) with none (one set of defaults)", async () => {
    const fromCli = await cli("eval", "--db", join(dir, "defaults-cli.db"), "--run", "defaults", "--no-progress", "--json");
    expect(fromCli.code).toBe(0);
    const library = await evaluate({ env: "sokoban", policy: "oracle", db: join(dir, "defaults-lib.db"), run: "defaults" });
    const printed = JSON.parse(fromCli.stdout) as { config: unknown };
    expect(printed.config).toEqual({ env: "sokoban", envOptions: {}, policy: "oracle", tasks: 100, samples: 8, ks: [1], budgets: ["100%"], budgetMode: "announced", budgetScope: "episode", protocol: "separate", seed: 1, bootstrap: 1000, annotate: true, intervention: "none" });
    const exported = async (db: string): Promise<string> => {
      const out = join(dir, `${db}.jsonl`);
      expect((await cli("export", "defaults", "--db", join(dir, db), "--out", out)).code).toBe(0);
      return readFileSync(out, "utf8");
    };
    const [a, b] = [await exported("defaults-cli.db"), await exported("defaults-lib.db")];
    expect(a.split("\n")).toHaveLength(801);
    expect(a).toBe(b);
    expect(library.config.tasks).toBe(100);
  });

  it("fails before any work on bad arguments, naming the argument", async () => {
    const db = join(dir, "bad.db");
    const cases: [string[], RegExp][] = [
      [["--tasks", "zero"], /--tasks: expected a number/],
      [["--tasks", "0"], /--tasks: Too small/],
      [["--k", "1,x"], /--k: expected positive integers/],
      [["--samples", "2", "--k", "4"], /ks: K = 4 is larger than the number of samples n = 2/],
      [["--budget", "25%,banana"], /--budget: "banana" is not a budget/],
      [["--budget-mode", "loud"], /--budget-mode: Invalid option/],
      [["--protocol", "single"], /protocol: protocol "single" reads success within each T[\s\S]*HINT: use --protocol separate/],
      [["--policy", "wizard"], /policy: unknown policy "wizard"/],
      [["--env", "chess"], /env: unknown env "chess"/],
      [["--env-opt", "boxes=0"], /sokoban.boxes/],
      [["--env-opt", "colour=red"], /sokoban.colour: unknown option/],
      [["--tsks", "3"], /--tsks: unknown option\nHINT: did you mean --tasks\?/],
      [["--tasks-file", join(dir, "missing.txt")], /tasks-file: cannot read/],
      [["--run", ""], /^budgetrl eval: --run: a run's name cannot be empty \(leave out --run for <env>-<timestamp>\)\n$/],
      [["--run", " "], /--run: a run's name cannot be empty/],
      [["--resume", "--run", ""], /--run: a run's name cannot be empty/],
    ];
    for (const [args, pattern] of cases) {
      const result = await cli("eval", "--db", db, "--no-progress", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(pattern);
      expect(result.stdout).toBe("");
    }
    await expect(evaluate({ env: "sokoban", policy: "oracle", run: "", db })).rejects.toThrow(/^run: a run's name cannot be empty/);
    const store = openSqlite(db);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM runs").get()).toEqual({ n: 0 });
    store.close();
  });

  it("has complete help for every command", async () => {
    const main = await cli("--help");
    for (const name of ["eval", "runs", "show", "export", "envs"]) {
      expect(main.stdout).toContain(`  ${name}`);
      const help = await cli(name, "--help");
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: budgetrl ${name}`);
    }
    const evalHelp = (await cli("eval", "--help")).stdout;
    for (const flag of ["--env ", "--env-opt", "--policy", "--tasks ", "--tasks-file", "--samples ", "--k ", "--budget ", "--budget-mode", "--budget-scope", "--protocol", "--seed", "--db", "--resume", "--concurrency", "--bootstrap"]) expect(evalHelp).toContain(flag);
    expect(evalHelp).toContain("<announced|remaining|hidden>");
    expect((await cli("envs", "sokoban")).stdout).toContain("boxes");
    expect((await cli("frobnicate")).code).toBe(2);
  });

  it("continues a run killed with SIGKILL to exactly the episodes of an uninterrupted run", async () => {
    const args = ["eval", "--env", "sokoban", "--policy", "noisy-oracle:0.3", "--tasks", "40", "--samples", "50", "--k", "1", "--budget", "25%,100%", "--seed", "4", "--run", "long", "--no-progress", "--bootstrap", "0"];
    const whole = join(dir, "whole.db");
    expect((await cli(...args, "--db", whole)).code).toBe(0);

    const killed = join(dir, "killed.db");
    const child = spawnCli([...args.filter((arg) => arg !== "--no-progress"), "--db", killed]);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    // The progress bar's first line comes at 10% (400 episodes): by then batches of 64 episodes are committed.
    await textMatching(child.stderr!, /eval \[##-+\] \d+\/4000/);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const partial = openSqlite(killed, { readonly: true });
    const before = (partial.db.prepare("SELECT COUNT(*) AS n FROM episodes").get() as { n: number }).n;
    partial.close();
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(4000);

    const resumed = await cli("eval", "--resume", "--run", "long", "--db", killed, "--no-progress");
    expect(resumed.code).toBe(0);
    const a = join(dir, "whole.jsonl");
    const b = join(dir, "killed.jsonl");
    await cli("export", "long", "--db", whole, "--out", a);
    await cli("export", "long", "--db", killed, "--out", b);
    expect(readFileSync(b, "utf8")).toBe(readFileSync(a, "utf8"));
    const tableOf = (text: string): string => text.slice(text.indexOf("Pass@(K,T)"), text.indexOf("stored in"));
    expect(tableOf(resumed.stdout)).toBe(tableOf((await cli("show", "long", "--db", whole)).stdout));
  }, 120_000);
});
