import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../src/eval/evaluate.js";
import { saveCheckpoint } from "../../src/nn/checkpoint.js";
import { createModel } from "../../src/nn/model.js";
import { openSqlite } from "../helpers/sqlite.js";
import { cli, spawnCli, textMatching } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-"));

describe("budgetrl eval", () => {
  it("prints the Pass@(K,T) table with intervals and stores the run", async () => {
    const db = join(dir, "table.db");
    const result = await cli(
      "eval",
      "--env",
      "sokoban",
      "--policy",
      "noisy-oracle:0.3",
      "--tasks",
      "5",
      "--samples",
      "4",
      "--k",
      "1,2,4",
      "--budget",
      "25%,100%",
      "--seed",
      "1",
      "--db",
      db,
      "--run",
      "demo",
      "--no-progress",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "run demo: sokoban | policy noisy-oracle:0.3 | 5 tasks x 4 samples | budget announced",
    );
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
    const fromCli = await cli(
      "eval",
      "--db",
      join(dir, "defaults-cli.db"),
      "--run",
      "defaults",
      "--no-progress",
      "--json",
    );
    expect(fromCli.code).toBe(0);
    const library = await evaluate({
      env: "sokoban",
      policy: "oracle",
      db: join(dir, "defaults-lib.db"),
      run: "defaults",
    });
    const printed = JSON.parse(fromCli.stdout) as { config: unknown };
    expect(printed.config).toEqual({
      env: "sokoban",
      envOptions: {},
      policy: "oracle",
      tasks: 100,
      distinct: "content",
      samples: 8,
      ks: [1],
      budgets: ["100%"],
      budgetMode: "announced",
      budgetScope: "episode",
      protocol: "separate",
      seed: 1,
      bootstrap: 1000,
      annotate: true,
      intervention: "none",
    });
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
      [["--samples", "2", "--k", "4"], /--k: K = 4 is larger than the number of samples n = 2/],
      [["--budget", "25%,banana"], /--budget: "banana" is not a budget/],
      [["--budget-mode", "loud"], /--budget-mode: Invalid option/],
      [
        ["--protocol", "single"],
        /--protocol: protocol "single" reads success within each T[\s\S]*HINT: use --protocol separate/,
      ],
      [["--policy", "wizard"], /--policy: unknown policy "wizard"/],
      [["--env", "chess"], /env: unknown env "chess"/],
      [["--env-opt", "boxes=0"], /sokoban.boxes/],
      [["--env-opt", "colour=red"], /sokoban.colour: unknown option/],
      [["--tsks", "3"], /--tsks: unknown option\nHINT: did you mean --tasks\?/],
      [["--tasks-file", join(dir, "missing.txt")], /tasks-file: cannot read/],
      [
        ["--run", ""],
        /^budgetrl eval: --run: a run's name cannot be empty \(leave out --run for <env>-<timestamp>\)\n$/,
      ],
      [["--run", " "], /--run: a run's name cannot be empty/],
      [["--resume", "--run", ""], /--run: a run's name cannot be empty/],
    ];
    for (const [args, pattern] of cases) {
      const result = await cli("eval", "--db", db, "--no-progress", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(pattern);
      expect(result.stdout).toBe("");
    }
    await expect(evaluate({ env: "sokoban", policy: "oracle", run: "", db })).rejects.toThrow(
      /^run: a run's name cannot be empty/,
    );
    const store = openSqlite(db);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM runs").get()).toEqual({ n: 0 });
    store.close();
  });

  it("refuses a tiny: checkpoint whose policy.json or model config is garbage before any work, naming --policy (and serve's --ckpt)", async () => {
    const ckpt = join(dir, "garbled-ckpt");
    const model = await createModel({
      config: { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 192 },
      seed: 1,
    });
    await saveCheckpoint(model, ckpt);
    model.dispose();
    const manifestPath = join(ckpt, "budgetrl.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, unknown>;
    const settingsPath = join(ckpt, "policy.json");
    const settings = `${JSON.stringify({ maxNewTokens: 16, history: "segments" })}\n`;
    const cases: [string, string, RegExp][] = [
      [
        settingsPath,
        "{maxNewTokens: 16",
        /policy\.json is not valid JSON \(corrupted\): restore the checkpoint from a good copy$/,
      ],
      [
        settingsPath,
        "[16]",
        /policy\.json must hold a JSON object of the policy's settings \(maxNewTokens, history\), got \[16\]$/,
      ],
      [settingsPath, '{"maxNewTokens": "lots"}', /policy\.json: maxNewTokens must be a whole number >= 1, got "lots"$/],
      [
        settingsPath,
        '{"maxNewTokens": 16, "history": "everything"}',
        /policy\.json: history must be "segments" \(the one context rule\), got "everything"$/,
      ],
      [
        settingsPath,
        '{"maxNewTokens": 16, "history": "window"}',
        /policy\.json records the retired 'window' history; retrain it \(budgetrl sft \/ train\), or add "history": "segments" to the file to play it under segments anyway \(it then sees prompts it was not trained on\)$/,
      ],
      [
        settingsPath,
        '{"maxNewTokens": 16}',
        /policy\.json records no history: the checkpoint was trained under the retired 'window' history; retrain it/,
      ],
      [
        settingsPath,
        '{"maxNewTokens": 16, "temperature": 0}',
        /policy\.json: unknown setting "temperature" \(known: maxNewTokens, history, renderer, templateOptions, toolCallFormat\)$/,
      ],
      [
        manifestPath,
        JSON.stringify({ ...manifest, config: "garbage" }),
        /budgetrl\.json: its model config is corrupted \(model: expected an object of model config fields, got "garbage"\)/,
      ],
      [
        manifestPath,
        JSON.stringify({ ...manifest, config: null }),
        /budgetrl\.json: its model config is corrupted \(model: expected an object/,
      ],
      [
        manifestPath,
        JSON.stringify({ ...manifest, config: { ...(manifest["config"] as object), unknownKey: 1 } }),
        /budgetrl\.json: its model config is corrupted \(model\.unknownKey: unknown model config key/,
      ],
      [
        manifestPath,
        JSON.stringify({ ...manifest, config: { ...(manifest["config"] as object), layers: "two" } }),
        /budgetrl\.json: its model config is corrupted \(model\.layers: must be a positive integer, got two\)/,
      ],
      [
        manifestPath,
        JSON.stringify({ ...manifest, config: undefined }),
        /budgetrl\.json holds no model config \(corrupted\)/,
      ],
      [
        manifestPath,
        JSON.stringify({ ...manifest, optimizerStep: "x" }),
        /budgetrl\.json: optimizerStep must be a whole number >= 0, got "x" \(corrupted\)/,
      ],
    ];
    const good = new Map([
      [settingsPath, settings],
      [manifestPath, JSON.stringify(manifest)],
    ]);
    writeFileSync(settingsPath, settings);
    const db = join(dir, "garbled.db");
    const played = await cli(
      "eval",
      "--policy",
      `tiny:${ckpt}`,
      "--tasks",
      "1",
      "--samples",
      "1",
      "--db",
      join(dir, "ungarbled.db"),
      "--no-progress",
      "--bootstrap",
      "0",
    );
    expect(played.code, played.stderr).toBe(0);
    for (const [path, text, pattern] of cases) {
      writeFileSync(path, text);
      const result = await cli(
        "eval",
        "--policy",
        `tiny:${ckpt}`,
        "--tasks",
        "1",
        "--samples",
        "1",
        "--db",
        db,
        "--no-progress",
      );
      expect(result.code, text).toBe(2);
      expect(result.stderr, text).toMatch(
        new RegExp(`^budgetrl eval: --policy: cannot load checkpoint ${ckpt}: [^\n]*\n$`),
      );
      expect(result.stderr.trimEnd(), text).toMatch(pattern);
      const served = await cli("serve", "--ckpt", ckpt, "--port", "0");
      expect(served.code, text).toBe(2);
      expect(served.stderr.trimEnd(), text).toMatch(
        new RegExp(`^budgetrl serve: --ckpt: cannot load checkpoint ${ckpt}: .*${pattern.source}`),
      );
      writeFileSync(path, good.get(path) as string);
    }
    expect(existsSync(db)).toBe(false);
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
    for (const flag of [
      "--env ",
      "--env-opt",
      "--policy",
      "--tasks ",
      "--tasks-file",
      "--samples ",
      "--k ",
      "--budget ",
      "--budget-mode",
      "--budget-scope",
      "--protocol",
      "--seed",
      "--db",
      "--resume",
      "--concurrency",
      "--bootstrap",
    ])
      expect(evalHelp).toContain(flag);
    expect(evalHelp).toContain("<announced|remaining|hidden>");
    expect((await cli("envs", "sokoban")).stdout).toContain("boxes");
    expect((await cli("frobnicate")).code).toBe(2);
  });

  it("continues a run killed with SIGKILL to exactly the episodes of an uninterrupted run", async () => {
    const args = [
      "eval",
      "--env",
      "sokoban",
      "--policy",
      "noisy-oracle:0.3",
      "--tasks",
      "40",
      "--samples",
      "50",
      "--k",
      "1",
      "--budget",
      "25%,100%",
      "--seed",
      "4",
      "--run",
      "long",
      "--no-progress",
      "--bootstrap",
      "0",
    ];
    const whole = join(dir, "whole.db");
    expect((await cli(...args, "--db", whole)).code).toBe(0);

    const killed = join(dir, "killed.db");
    const child = spawnCli([...args.filter((arg) => arg !== "--no-progress"), "--db", killed]);
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
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
