// The pinned reference: SFT, three GiGPO steps under BudgetMix and an eval on thinice, from fixed seeds, must give the
// same weights, the same table and a byte-identical export on every commit. Refactors (issue 22) keep behaviour;
// a change that means to alter it re-pins with BUDGETRL_PIN=write and says why in its commit message.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cli } from "../cli/helpers.js";

const pinFile = fileURLToPath(new URL("./pinned-export.json", import.meta.url));
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
  "contextLength=128",
];

interface Pin {
  readonly baseWeights: string;
  readonly rlWeights: string;
  readonly table: string;
  readonly exportSha256: string;
  readonly exportLines: number;
}

const sha256 = (bytes: Buffer | string): string => createHash("sha256").update(bytes).digest("hex");

async function ok(...argv: string[]): Promise<string> {
  const result = await cli(...argv);
  if (result.code !== 0) throw new Error(`budgetrl ${argv[0]} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** The eval's printed table, from its header to the last row (the lines naming temporary paths left out). */
const tableOf = (stdout: string): string =>
  stdout
    .split("\n")
    .filter((line) => !line.includes(tmpdir()) && line.trim() !== "")
    .join("\n");

async function reference(dir: string): Promise<Pin> {
  const base = join(dir, "base");
  const rl = join(dir, "rl");
  await ok(
    "sft",
    "--env",
    "thinice",
    "--tasks",
    "64",
    "--samples",
    "1",
    "--steps",
    "300",
    "--learning-rate",
    "3e-3",
    "--batch-size",
    "16",
    "--budget",
    "1.5x,3x",
    "--max-new-tokens",
    "8",
    ...model,
    "--out",
    base,
    "--no-progress",
  );
  await ok(
    "train",
    "--env",
    "thinice",
    "--init",
    base,
    "--algo",
    "gigpo",
    "--budget",
    "budgetmix:1.25x,3x",
    "--tasks-per-step",
    "2",
    "--group",
    "2",
    "--steps",
    "3",
    "--eval-every",
    "0",
    "--max-new-tokens",
    "8",
    "--out",
    rl,
    "--no-progress",
  );
  const ckpt = join(rl, "checkpoints", "step-000003");
  const db = join(dir, "runs.db");
  const table = tableOf(
    await ok(
      "eval",
      "--env",
      "thinice",
      "--policy",
      `tiny:${ckpt}`,
      "--tasks",
      "4",
      "--samples",
      "2",
      "--budget",
      "1.25x,3x",
      "--db",
      db,
      "--run",
      "ref",
      "--no-progress",
    ),
  );
  const out = join(dir, "ref.jsonl");
  await ok("export", "ref", "--db", db, "--out", out);
  const exported = readFileSync(out);
  return {
    baseWeights: sha256(readFileSync(join(base, "model.safetensors"))),
    rlWeights: sha256(readFileSync(join(ckpt, "model.safetensors"))),
    table,
    exportSha256: sha256(exported),
    exportLines: exported.toString().trimEnd().split("\n").length,
  };
}

describe("the pinned reference export", () => {
  it("gives the same weights, table and export bytes as pinned", async () => {
    const got = await reference(mkdtempSync(join(tmpdir(), "budgetrl-pin-")));
    if (process.env.BUDGETRL_PIN === "write") writeFileSync(pinFile, `${JSON.stringify(got, null, 2)}\n`);
    const pinned = JSON.parse(readFileSync(pinFile, "utf8")) as Pin;
    expect(got).toEqual(pinned);
  }, 180_000);
});
