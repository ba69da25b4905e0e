// `budgetrl report`: the study report of runs in a store, as ONE self-contained HTML file (charts inlined, no
// network at view time), plus the budget table and the findings in the terminal.
import { writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { fileOutputProblem } from "../core/output-path.js";
import { renderStudyHtml } from "../report/html/render.js";
import { DEFAULT_RESAMPLES } from "../metrics/bootstrap.js";
import { buildStudyReport, DEFAULT_REPORT_SEED, DEFAULT_REPORT_TITLE } from "../report/study-build.js";
import type { ModelRole } from "../report/study-model.js";
import { parseRole, type ModelSelection } from "../report/study-runs.js";
import { renderBudgetTables, renderFindings, renderStepQualityByBudget } from "../report/study-tables.js";
import type { TrainingSelection } from "../report/training-curves.js";
import { openStore } from "../store/open.js";
import { listRuns } from "../store/runs.js";
import { storeWaitFields, storeWaits } from "./store-flags.js";
import { defineCommand } from "./command.js";
import { viewUrlField } from "./view-url-flag.js";

const schema = z.object({
  db: z.string().default("budgetrl.db").describe("run store: an SQLite file, or a postgres:// URL"),
  ...storeWaitFields,
  runs: z
    .string()
    .optional()
    .describe(
      "runs to include, comma-separated; each joins the model of its policy spec (default: every run in the store, unless --model names them)",
    ),
  model: z
    .array(z.string())
    .default([])
    .describe("a named model and its runs: NAME=RUN[,RUN...] (e.g. its announced and hidden runs)"),
  role: z
    .array(z.string())
    .default([])
    .describe(
      "a model's role in the findings: NAME=base|grpo|process|budgetmix|budgetmix-hidden|other (default: none; a model without a role takes part in no finding)",
    ),
  train: z
    .array(z.string())
    .default([])
    .describe(
      "a training run folder (budgetrl train --out) for the training curves: DIR, or NAME=DIR to attach it to model NAME",
    ),
  out: z.string().default("report.html").describe("HTML file to write"),
  json: z.string().optional().describe("also write the report's data (the StudyReport object) as JSON to this file"),
  title: z.string().default(DEFAULT_REPORT_TITLE).describe("title of the report"),
  bootstrap: z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(DEFAULT_RESAMPLES)
    .describe("bootstrap resamples for every interval (0: none)"),
  seed: z.number().int().min(0).default(DEFAULT_REPORT_SEED).describe("seed of the bootstrap"),
  viewUrl: viewUrlField,
});

function splitOnce(text: string, flag: string, usage: string): [string, string] {
  const eq = text.indexOf("=");
  if (eq <= 0 || eq === text.length - 1) throw new ConfigError(flag, `expected ${usage}, got "${text}"`);
  return [text.slice(0, eq).trim(), text.slice(eq + 1).trim()];
}

export function modelsFromFlags(values: readonly string[]): ModelSelection[] {
  const models: ModelSelection[] = [];
  for (const value of values) {
    const [name, runs] = splitOnce(value, "--model", "NAME=RUN[,RUN...]");
    if (models.some((model) => model.name === name))
      throw new ConfigError(
        "--model",
        `model "${name}" is given twice`,
        "list all its runs in one --model NAME=RUN,RUN",
      );
    models.push({
      name,
      runs: runs
        .split(",")
        .map((run) => run.trim())
        .filter((run) => run !== ""),
    });
  }
  return models;
}

export function rolesFromFlags(values: readonly string[]): Record<string, ModelRole> {
  const roles: Record<string, ModelRole> = {};
  for (const value of values) {
    const [name, role] = splitOnce(value, "--role", "NAME=base|grpo|process|budgetmix");
    roles[name] = parseRole(role);
  }
  return roles;
}

export function trainingFromFlags(values: readonly string[], models: readonly string[]): TrainingSelection[] {
  return values.map((value) => {
    const eq = value.indexOf("=");
    const [name, dir] =
      eq > 0 ? [value.slice(0, eq).trim(), value.slice(eq + 1).trim()] : [basename(resolve(value)), value];
    return { name, dir, ...(models.includes(name) ? { model: name } : {}) };
  });
}

export const reportCommand = defineCommand({
  name: "report",
  summary: "Write the study report of runs in a store: one self-contained HTML file with charts, tables and findings.",
  description:
    "Models are named with --model NAME=RUN[,RUN] (or grouped by policy from --runs); their roles, given with --role NAME=ROLE (base, grpo, process, budgetmix), decide the findings' comparisons, and a finding whose roles no model has says which --role it needs. Teacher-forced and perturbed runs are recognised from their configs. The report embeds its charting library, so it opens offline.",
  schema,
  examples: [
    "budgetrl report --db runs.db --runs A,B,C --out report.html",
    "budgetrl report --db runs.db --out report.html --view-url http://127.0.0.1:8400",
    "budgetrl report --db runs.db --model base=base-ann,base-hid --model GRPO-Full=grpo-ann,grpo-hid --model BudgetMix=mix-ann,mix-hid --role base=base --role GRPO-Full=grpo --role BudgetMix=budgetmix --train GRPO-Full=runs/grpo --out study.html",
  ],
  async run(options, io) {
    for (const [flag, path] of [
      ["--out", options.out],
      ["--json", options.json],
    ] as const) {
      const problem = path === undefined ? undefined : fileOutputProblem(path);
      if (problem !== undefined) throw new ConfigError(flag, problem);
    }
    const store = await openStore(options.db, { mode: "read", ...storeWaits("report", options, io) });
    try {
      const models = modelsFromFlags(options.model);
      const listed = options.runs
        ?.split(",")
        .map((run) => run.trim())
        .filter((run) => run !== "");
      const runs = listed ?? (models.length === 0 ? (await listRuns(store)).map((run) => run.id) : []);
      if (runs.length === 0 && models.length === 0) throw new ConfigError("--runs", `${options.db} has no runs`);
      const selection = { runs, models, roles: rolesFromFlags(options.role) };
      const names = [...models.map((model) => model.name)];
      const report = await buildStudyReport(store, {
        selection,
        training: trainingFromFlags(options.train, names),
        bootstrap: options.bootstrap,
        seed: options.seed,
        title: options.title,
      });
      writeFileSync(
        options.out,
        renderStudyHtml(report, options.viewUrl === undefined ? {} : { viewUrl: options.viewUrl }),
      );
      if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(report, null, 2)}\n`);
      io.stdout(
        `${[renderBudgetTables(report), renderStepQualityByBudget(report), renderFindings(report)].filter((text) => text !== "").join("\n\n")}\n\n`,
      );
      io.stdout(
        `wrote ${options.out}: ${report.models.length} models, ${report.runs.length} runs${report.training.length === 0 ? "" : `, ${report.training.length} training runs`}${options.json === undefined ? "" : `; data in ${options.json}`}\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  },
});
