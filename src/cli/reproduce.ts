// `budgetrl reproduce`: the paper's study on this machine, end to end, with a view of its stages (each with a
// progress bar: rate and ETA), then the budget table and the findings in the terminal and the HTML report on
// disk. Ctrl-C stops at once, keeping what finished; `--resume` continues at the stage that was interrupted.
import { z } from "zod";
import { shellWord } from "../core/commands.js";
import { renderBudgetTables, renderFindings, renderStepQualityByBudget } from "../report/study-tables.js";
import { STUDY_ENVS, STUDY_PRESETS } from "../study/config.js";
import { reproduce } from "../study/reproduce.js";
import { STAGES, type StageEvents } from "../study/stages.js";
import { defineCommand, type CliIo } from "./command.js";
import { keyValues } from "./key-values.js";
import { createProgress, formatDuration, type Progress } from "./progress.js";
import { reportIgnoredOnResume } from "./resume-flags.js";

const schema = z.object({
  preset: z.enum(STUDY_PRESETS).default("quick").describe("study size: quick (minutes; CI runs it) or full (under 45 minutes on 2 cores; what README quotes)"),
  env: z.enum(STUDY_ENVS).optional().describe("test every claim on this one env (default: the two-env design: vault, a budget trade-off, for the budget claims; hanoi with random starts, a horizon dial, for recovery and horizon)"),
  envOpt: z.array(z.string()).default([]).describe("environment option KEY=VALUE"),
  seed: z.number().int().min(0).default(1).describe("seed of every stage"),
  out: z.string().min(1).default("study").describe("study folder: config, base model, RL runs, study.db, report.html"),
  resume: z.boolean().default(false).describe("continue the study in --out where it stopped (its stored config wins)"),
  progress: z.boolean().default(true).describe("show progress bars on stderr"),
});

/** Progress bars for the jobs of the running stage, one at a time, on stderr. */
function stageView(io: CliIo, enabled: boolean): StageEvents & { close(): void } {
  let bar: Progress | undefined;
  const close = (): void => {
    bar?.finish();
    bar = undefined;
  };
  return {
    job: (name, total, initial, unit) => {
      close();
      if (enabled) bar = createProgress({ label: `  ${name}`, total, initial, unit, interactive: io.interactive, write: io.stderr });
    },
    progress: (done) => bar?.update(done),
    note: (text) => io.stderr(`  ${text}\n`),
    close,
  };
}

export const reproduceCommand = defineCommand({
  name: "reproduce",
  summary: "Rerun the paper's study here: base models, the RL runs, the Pass@(K,T) grid, analyses and an HTML report.",
  description:
    "Stages, for each env of the study: distinct held-out tasks -> demonstrations of a budget-aware noisy oracle at every budget, announced and hidden, and SFT on its optimal replies (the base model) -> RL runs from the same base with the same compute (GRPO-Full at the most generous budget and at the tightest, turn-level process supervision, BudgetMix over every budget, BudgetMix with hidden budgets) -> evaluation of every model on the held-out tasks (announced and hidden budgets, teacher-forced and recovery runs) -> report (report.html, report.json). Budgets are multiples of each task's optimal length (1.25x, 1.5x, 2x, 3x). Interrupt with Ctrl-C and continue with --resume.",
  schema,
  interruptible: true,
  examples: ["budgetrl reproduce --preset quick", "budgetrl reproduce --preset full --out runs/study", "budgetrl reproduce --preset full --env thinice --out runs/thinice", "budgetrl reproduce --out runs/study --resume"],
  async run(options, io, context) {
    if (options.resume) reportIgnoredOnResume(io, "reproduce", context.given, ["out", "resume", "progress"]);
    const view = stageView(io, options.progress);
    let stageStart = performance.now();
    const envOptions = keyValues(options.envOpt, "--env-opt");
    const result = await reproduce({
      out: options.out,
      resume: options.resume,
      study: { preset: options.preset, ...(options.env === undefined ? {} : { env: options.env }), envOptions, seed: options.seed },
      signal: context.signal,
      events: view,
      onStage: (stage, status, summary) => {
        view.close();
        const index = `${STAGES.indexOf(stage) + 1}/${STAGES.length}`;
        if (status === "start") {
          stageStart = performance.now();
          io.stderr(`[${index}] ${stage}\n`);
        } else if (status === "skipped") io.stderr(`[${index}] ${stage}: done before, skipped\n`);
        else io.stderr(`[${index}] ${stage}: ${summary ?? "done"} (${formatDuration((performance.now() - stageStart) / 1000)})\n`);
      },
    });
    view.close();
    if (!result.finished) {
      io.stderr(`Stopped; what finished is kept in ${options.out}. Continue with: budgetrl reproduce --out ${shellWord(options.out)} --resume\n`);
      return 130;
    }
    if (result.report !== undefined) io.stdout(`${[renderBudgetTables(result.report), renderStepQualityByBudget(result.report), renderFindings(result.report)].filter((text) => text !== "").join("\n\n")}\n\n`);
    io.stdout(`report: ${result.reportPath} (data: ${result.reportPath.replace(/\.html$/, ".json")})\n`);
    return 0;
  },
});
