import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allText, argvOf, cli, exitOf, spawnCli, textMatching } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-stop-"));

describe("stopping a long command", () => {
  it("stops eval of a scripted policy within a second of Ctrl-C even at --tasks 1000000000, exit 130, with the resume command", async () => {
    const db = join(dir, "huge.db");
    const child = spawnCli([
      "eval",
      "--env",
      "sokoban",
      "--policy",
      "oracle",
      "--tasks",
      "1000000000",
      "--run",
      "huge",
      "--db",
      db,
    ]);
    const exit = exitOf(child);
    const stderr = allText(child.stderr!);
    // The run has started (it is in its rollout loop, which never awaits a real event with a scripted policy).
    await textMatching(child.stderr!, /run huge: 8000000000 episodes, stored in .* as they finish/);
    const sent = performance.now();
    child.kill("SIGINT");
    const { code } = await exit;
    expect(performance.now() - sent).toBeLessThan(1000);
    expect(code).toBe(130);
    expect(await stderr).toMatch(
      new RegExp(
        `Stopped after \\d+/8000000000 episodes, stored in ${db}\\. Continue with: budgetrl eval --resume --run huge --db ${db}\\n`,
      ),
    );
  }, 60_000);

  it("stops on SIGTERM with exit 143, keeps what finished, and the printed resume command completes the run byte-identically", async () => {
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
      "--bootstrap",
      "0",
    ];
    const whole = join(dir, "whole.db");
    expect((await cli(...args, "--db", whole, "--no-progress")).code).toBe(0);

    const stopped = join(dir, "stopped.db");
    const child = spawnCli([...args, "--db", stopped]);
    const exit = exitOf(child);
    const stderr = allText(child.stderr!);
    // The progress bar's first line (10% of the 4000 episodes) says the run is well under way.
    await textMatching(child.stderr!, /eval \[##-+\] \d+\/4000/);
    const sent = performance.now();
    child.kill("SIGTERM");
    expect((await exit).code).toBe(143);
    expect(performance.now() - sent).toBeLessThan(1000);
    const hint = /Continue with: (budgetrl eval .*)\n/.exec(await stderr)?.[1];
    expect(hint).toBe(`budgetrl eval --resume --run long --db ${stopped}`);

    const resumed = await cli(...argvOf(hint as string), "--no-progress");
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/run long: 4000 episodes \(\d+ already stored\)/);
    const a = join(dir, "whole.jsonl");
    const b = join(dir, "stopped.jsonl");
    expect((await cli("export", "long", "--db", whole, "--out", a)).code).toBe(0);
    expect((await cli("export", "long", "--db", stopped, "--out", b)).code).toBe(0);
    expect(readFileSync(b, "utf8")).toBe(readFileSync(a, "utf8"));
  }, 120_000);

  it("stops sft within a second of SIGTERM as the demonstrations become training data, and the printed command finishes it", async () => {
    // 2000 demonstrations: turning them into training sequences takes seconds, growing with their number.
    const out = join(dir, "sft-base");
    const child = spawnCli([
      "sft",
      "--env",
      "sokoban",
      "--tasks",
      "1000",
      "--samples",
      "2",
      "--steps",
      "1",
      "--batch-size",
      "4",
      "--out",
      out,
    ]);
    const exit = exitOf(child);
    const stderr = allText(child.stderr!);
    // The last demonstration is made: the next phase reads them back and lays them out as sequences.
    await textMatching(child.stderr!, /demos \[#+\] 2000\/2000 100%/);
    const sent = performance.now();
    child.kill("SIGTERM");
    const { code } = await exit;
    expect(performance.now() - sent).toBeLessThan(1000);
    expect(code).toBe(143);
    const hint = /continue with: (budgetrl sft .*)\n/.exec(await stderr)?.[1];
    expect(hint).toBe(`budgetrl sft --out ${out} --resume`);
    expect(existsSync(join(out, "budgetrl.json"))).toBe(false);
    const resumed = await cli(...argvOf(hint as string), "--no-progress");
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(
      /trained on \d+ reply sequences of run demonstrations\/announced; final loss \d+\.\d{4}; checkpoint /,
    );
  }, 120_000);
});
