// `budgetrl reproduce` on other model sources, end to end over loopback, on BFCL (the paper's Table 1 env) at a toy
// size: the base served by `budgetrl serve` (a child process) and evaluated through the OpenAI client (--base
// openai:MODEL --base-url URL: no demonstrations, no SFT), the RL runs one training client each on the Tinker
// stand-in (--trainer tinker --base-model NAME --tinker-url URL), whose base model is the same checkpoint, prompts
// rendered from a tokenizer.json and chat template (--renderer hf:DIR: a byte-level BPE fixture the stand-in's tiny
// model can read), and their checkpoints evaluated through the stand-in's sampler. The report has the embedded study's shape (sections, tables,
// models, runs, findings); a study stopped in its RL stage and again in its evaluation resumes, from the command line
// with the servers' flags given again, to the tables of one run straight through; the served base and the same
// checkpoint sampled as the Tinker service's base model (--base tinker) play the same episodes (seedScheme=tiny); the
// served base's client flags (eval's: --cache DIR, --request-timeout, --retries, ...) reach its evaluations; config
// errors are refused before any work, naming the field, with exit code 2.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Episode } from "../../src/core/episode.js";
import type { StudyReport } from "../../src/report/study-model.js";
import { reproduce } from "../../src/study/reproduce.js";
import type { StageEvents } from "../../src/study/stages.js";
import { freshCheckpoint, SMALL_MODEL } from "../serve/helpers.js";
import { startStandin, type Standin } from "../tinker/standin-server.js";
import { cli, exitOf, spawnCli, textMatching } from "../cli/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-study-served-"));
const HF = join(import.meta.dirname, "..", "policies", "renderers", "fixtures", "hf-tiny");
let child: ReturnType<typeof spawnCli>;
let servedUrl: string;
let standin: Standin;

/** The toy sizes of both studies: three held-out BFCL entries, two RL runs of two steps. */
const SIZES = {
  heldOutTasks: 3,
  demoTasks: 4,
  demoSamples: 1,
  sftSteps: 4,
  rlSteps: 2,
  tasksPerStep: 2,
  group: 2,
  maxNewTokens: 8,
  trainEvalEvery: 1,
  trainEvalTasks: 2,
  samples: 2,
  ks: "1,2",
  teacherForcedSamples: 1,
  perturbTurns: [1],
  perturbSamples: 1,
  bootstrap: 50,
  model: SMALL_MODEL,
};
const sizeFlags = Object.entries(SIZES).flatMap(([key, value]) => [
  "--size",
  `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`,
]);
const unbudgeted = [
  "reproduce",
  "--env",
  "bfcl",
  "--variants",
  "grpo-full,budgetmix",
  ...sizeFlags,
  "--seed",
  "2",
  "--no-progress",
];
const design = [...unbudgeted, "--budget", "25%,100%"];
// seedScheme=tiny: `budgetrl serve` seeds each reply as tiny:CKPT does, and so does the Tinker sampler policy. The
// base's replies are cached in a folder of this test (--cache DIR): the client flags reach its evaluations.
const cacheDir = join(dir, "cache");
const servedFlags = () => [
  "--base",
  "openai:tiny-base",
  "--base-opt",
  "seedScheme=tiny",
  "--base-url",
  servedUrl,
  "--cache",
  cacheDir,
  "--request-timeout",
  "60000",
  "--retries",
  "2",
  "--trainer",
  "tinker",
  "--base-model",
  "tiny-base",
  "--renderer",
  `hf:${HF}`,
  "--tinker-url",
  standin.url,
];

/** What the report holds, not its numbers: sections and tables, models and their roles, runs, findings. */
function shape(report: StudyReport): unknown {
  return {
    keys: Object.keys(report).sort(),
    models: report.models.map((model) => [
      model.name,
      model.role,
      model.roleSource,
      model.runs.length,
      model.training.length,
    ]),
    runs: report.runs.map((run) => [run.id, run.kind, run.mode, run.scope, run.budgets, run.samples, run.status]),
    passTables: report.passTables.map((table) => [table.model, table.mode, table.ks, table.budgets, table.tasks]),
    budgetTables: report.budgetTables.map((table) => [
      table.variant,
      table.budgets,
      table.k,
      table.rows.map((row) => [row.model, row.mode]),
    ]),
    invalidReplies: report.invalidReplies.map((table) => [
      table.variant,
      table.rows.map((row) => [row.model, row.mode]),
    ]),
    stepQuality: report.stepQuality.map((entry) => [entry.model, entry.mode, entry.source]),
    perturbation: report.perturbation.map((entry) => [entry.model, entry.run, entry.perturbTurn]),
    training: report.training.map((entry) => [
      entry.name,
      entry.model,
      entry.steps.length,
      entry.evals.length,
      entry.overlap.heldOutSeenInTraining,
    ]),
    findings: report.findings.map((finding) => [finding.id, finding.scopes.map((scope) => scope.scope)]),
  };
}

/** The page's sections and how many tables each holds. */
function sections(html: string): [string, number][] {
  return [...html.matchAll(/<section id="([^"]+)">([\s\S]*?)<\/section>/g)].map((match) => [
    match[1] as string,
    (match[2] as string).split("<table").length - 1,
  ]);
}

const tables = (report: StudyReport | undefined): unknown => ({
  pass: report?.passTables,
  budget: report?.budgetTables,
  steps: report?.stepQuality,
  perturbation: report?.perturbation,
  findings: report?.findings,
  training: report?.training.map((entry) => entry.steps),
});
const readReport = (out: string): StudyReport =>
  JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as StudyReport;

/** The replies of a stored run's episodes, in order. */
async function replies(out: string, run: string): Promise<string[][]> {
  const file = join(dir, `${run.replaceAll("/", "-")}-${out.split("/").pop() ?? ""}.jsonl`);
  expect((await cli("export", run, "--db", join(out, "study.db"), "--out", file)).code).toBe(0);
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as Episode).turns.map((turn) => turn.action.content));
}

beforeAll(async () => {
  const ckpt = await freshCheckpoint(join(dir, "ckpt"), { maxNewTokens: 8, history: "segments" }, 4);
  // The tiny context rule: the served base answers as tiny:CKPT does (and as the stand-in samples it).
  child = spawnCli([
    "serve",
    "--ckpt",
    ckpt,
    "--port",
    "0",
    "--name",
    "tiny-base",
    "--context-rule",
    "tiny",
    "--cut-long-messages",
  ]);
  servedUrl = /on (http:\/\/127\.0\.0\.1:\d+\/v1) /.exec(await textMatching(child.stdout!, /Ctrl-C stops\n/))![1]!;
  // The Tinker service's base model is the served checkpoint: the RL runs start from the model the base row measures.
  standin = await startStandin({ baseModels: { "tiny-base": { init: ckpt } } });
}, 120_000);

afterAll(async () => {
  await standin?.close();
  if (child !== undefined && child.exitCode === null) {
    child.kill("SIGINT");
    await exitOf(child);
  }
});

describe("reproduce with a served base and a Tinker trainer", () => {
  it("writes the embedded study's report shape, resumes after stops in RL and in evaluation to the same tables, and samples the served base's episodes on the service", async () => {
    const embedded = await cli(...design, "--out", join(dir, "embedded"));
    expect(embedded.stderr).not.toMatch(/error/i);
    expect(embedded.code).toBe(0);

    const served = await cli(...design, ...servedFlags(), "--out", join(dir, "served"));
    expect(served.code).toBe(0);
    expect(served.stderr).toContain("[3/6] sft: skipped, demonstrations and SFT (the base is served, not made here)");
    expect(served.stdout).toMatch(/^Budget table, bfcl/m);
    const reference = readReport(join(dir, "embedded"));
    const report = readReport(join(dir, "served"));
    expect(shape(report)).toEqual(shape(reference));
    expect(sections(readFileSync(join(dir, "served", "report.html"), "utf8"))).toEqual(
      sections(readFileSync(join(dir, "embedded", "report.html"), "utf8")),
    );
    // Each model as data: the base served (no folder), the RL runs trained on the service and sampled there.
    expect(report.models.map((model) => [model.name, model.source?.origin, model.source?.policy.kind])).toEqual([
      ["base", "served", "openai"],
      ["GRPO-Full", "rl", "tinker"],
      ["BudgetMix", "rl", "tinker"],
    ]);
    expect(report.runs.find((run) => run.id === "seed-2/bfcl/base/announced")?.policy).toBe("openai:tiny-base");
    expect(report.runs.find((run) => run.id === "seed-2/bfcl/grpo-full/announced")?.policy).toBe(
      `tinker:tiny-base@${join(dir, "served", "seed-2", "bfcl", "rl", "grpo-full", "checkpoints", "step-000002")}`,
    );
    expect(report.setup).toEqual({
      base: "openai:tiny-base, a served model evaluated as it is served",
      trainer: `a LoRA (rank 32) of tiny-base on a Tinker service, one training client per RL run, prompts rendered by hf:${HF}`,
      skipped: ["demonstrations and SFT (the base is served, not made here)"],
    });
    expect(reference.setup?.skipped).toEqual([]);
    expect(readFileSync(join(dir, "served", "report.html"), "utf8")).toContain(
      "Skipped: demonstrations and SFT (the base is served, not made here).",
    );
    expect(existsSync(join(dir, "served", "seed-2", "bfcl", "base"))).toBe(false);
    // The base's evaluations answered through the client options given: its replies are in the --cache folder.
    expect((await cli("cache", "info", "--cache", cacheDir)).stdout).toMatch(/^tiny-base\t[1-9]\d*$/m);
    // Neither the servers' addresses nor a key are stored with the study or its RL runs.
    for (const file of [
      join(dir, "served", "study.json"),
      join(dir, "served", "seed-2", "bfcl", "rl", "grpo-full", "config.json"),
    ]) {
      const text = readFileSync(file, "utf8");
      expect(text).not.toContain(servedUrl);
      expect(text).not.toContain(standin.url);
    }
    expect(
      JSON.parse(readFileSync(join(dir, "served", "seed-2", "bfcl", "rl", "grpo-full", "config.json"), "utf8")),
    ).toMatchObject({
      backend: { kind: "tinker", baseModel: "tiny-base", renderer: `hf:${HF}` },
      env: "bfcl",
      budgetScope: "user-turn",
    });

    // Stopped in the second RL run, resumed and stopped again in an RL model's evaluation (sampled on the service),
    // then resumed from the command line with the servers given again.
    const out = join(dir, "stopped");
    const reach = { openai: { baseUrl: servedUrl, cache: false }, tinker: { baseUrl: standin.url } };
    const stopAt = (
      stop: (name: string, done: number) => boolean,
    ): { controller: AbortController; events: StageEvents } => {
      const controller = new AbortController();
      let job = "";
      return {
        controller,
        events: {
          job: (name) => void ((job = name), stop(name, 0) && controller.abort()),
          progress: (done) => void (stop(job, done) && controller.abort()),
          note: () => undefined,
        },
      };
    };
    let rlJobs = 0;
    const inRl = stopAt(
      (name, done) => done === 0 && name.startsWith("bfcl ") && !name.includes("/") && ++rlJobs === 2,
    );
    const stopped = await reproduce({
      out,
      study: {
        preset: "quick",
        env: "bfcl",
        budgets: "25%,100%",
        variants: ["grpo-full", "budgetmix"],
        seed: 2,
        overrides: SIZES,
        base: { kind: "openai", model: "tiny-base", options: { seedScheme: "tiny" } },
        trainer: { kind: "tinker", baseModel: "tiny-base", renderer: `hf:${HF}` },
      },
      reach,
      signal: inRl.controller.signal,
      events: inRl.events,
    });
    expect(stopped.finished).toBe(false);
    expect(existsSync(join(out, "seed-2", "bfcl", "rl", "budgetmix", "checkpoints", "step-000002"))).toBe(false);
    const inEval = stopAt((name, done) => name === "seed-2/bfcl/grpo-full/teacher-forced-announced" && done >= 3);
    const stoppedAgain = await reproduce({
      out,
      resume: true,
      reach,
      signal: inEval.controller.signal,
      events: inEval.events,
    });
    expect(stoppedAgain.finished).toBe(false);
    expect(existsSync(join(out, "report.html"))).toBe(false);
    const withoutServers = await cli("reproduce", "--out", out, "--resume", "--no-progress");
    expect(withoutServers.code).toBe(2);
    expect(withoutServers.stderr).toMatch(/--tinker-url: a study with the Tinker trainer needs the service's address/);
    const resumed = await cli(
      "reproduce",
      "--out",
      out,
      "--resume",
      "--base-url",
      servedUrl,
      "--no-cache",
      "--tinker-url",
      standin.url,
      "--no-progress",
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("[1/6] tasks: done before, skipped");
    expect(resumed.stderr).toContain("[4/6] rl: done before, skipped");
    expect(tables(readReport(out))).toEqual(tables(report));

    // The same checkpoint as the Tinker service's base model, sampled through its sampler with budgetrl's byte
    // renderer (the tiny policy's prompts, as `budgetrl serve` renders them): the base's episodes are the served
    // base's, reply for reply.
    const tinkerBase = join(dir, "tinker-base");
    const sampled = await cli(
      ...design
        .filter((word) => word !== "grpo-full,budgetmix")
        .map((word) => (word === "--variants" ? "--variants=grpo-full" : word)),
      "--size",
      "rlSteps=1",
      "--trainer",
      "tinker",
      "--base-model",
      "tiny-base",
      "--tinker-url",
      standin.url,
      "--out",
      tinkerBase,
    );
    expect(sampled.code).toBe(0);
    expect(readReport(tinkerBase).models[0]).toMatchObject({
      name: "base",
      source: { origin: "base-model", policy: { kind: "tinker", baseModel: "tiny-base" } },
    });
    expect(await replies(tinkerBase, "seed-2/bfcl/base/announced")).toEqual(
      await replies(join(dir, "served"), "seed-2/bfcl/base/announced"),
    );
  }, 240_000);

  it("refuses sources it cannot train or reach before any work, naming the field", async () => {
    const refused: [string[], RegExp][] = [
      [
        ["--base", "openai:tiny-base", "--base-url", servedUrl],
        /^budgetrl reproduce: --base: openai:tiny-base has no weights the in-process trainer \(trainer: tiny\) can train/,
      ],
      [
        ["--trainer", "tinker", "--base-model", "tiny-base", "--base", "sft", "--tinker-url", standin.url],
        /base: sft makes an in-process model/,
      ],
      [
        ["--trainer", "tinker", "--base-model", "tiny-base"],
        /--tinker-url: a study with the Tinker trainer needs the service's address/,
      ],
      [["--trainer", "tinker", "--tinker-url", standin.url], /--base-model: is required with --trainer tinker/],
      [
        ["--trainer", "tinker", "--base-model", "no-such-model", "--tinker-url", standin.url],
        /--base-model: http:\/\/127\.0\.0\.1:\d+ does not serve no-such-model[\s\S]*it serves: tiny-base/,
      ],
      [
        [
          "--trainer",
          "tinker",
          "--base-model",
          "tiny-base",
          "--tinker-url",
          standin.url,
          "--renderer",
          `hf:${join(dir, "no-such-folder")}`,
        ],
        /^budgetrl reproduce: --renderer: /,
      ],
      [["--base-model", "tiny-base"], /--base-model: is read by --trainer tinker only/],
      [["--base", "oracle"], /base: "oracle" is no base a study can start from/],
      [["--base-opt", "temperature=0.5"], /--base-opt: sampling options are for an openai: base/],
      [
        [
          "--base",
          "openai:m",
          "--base-opt",
          "temperature=9",
          "--trainer",
          "tinker",
          "--base-model",
          "tiny-base",
          "--tinker-url",
          standin.url,
        ],
        /base\.options\.temperature: /,
      ],
      [
        ["--budget", "1.5x,3x"],
        /envs\.bfcl\.budgets: budget 1\.5x is a multiple of the optimal length, which env bfcl cannot say/,
      ],
      [["--size", "rlStep=3"], /--size rlStep: is not a preset field/],
    ];
    const previous = process.env.TINKER_BASE_URL;
    delete process.env.TINKER_BASE_URL;
    try {
      for (const [flags, pattern] of refused) {
        const out = join(dir, "refused");
        const result = await cli(...(flags.includes("--budget") ? unbudgeted : design), ...flags, "--out", out);
        expect(result.stderr).toMatch(pattern);
        expect(result.code).toBe(2);
        expect(existsSync(out)).toBe(false);
      }
    } finally {
      if (previous !== undefined) process.env.TINKER_BASE_URL = previous;
    }
  }, 60_000);
});
