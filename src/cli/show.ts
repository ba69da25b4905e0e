// `budgetrl show RUN`: the Pass@(K,T) table of a stored run, recomputed from its episodes.
import { z } from "zod";
import { integerListField } from "../core/config.js";
import { evalResumeCommand } from "../core/commands.js";
import { ConfigError } from "../core/errors.js";
import { parseEvalConfig } from "../eval/config.js";
import { storedRunOutcomes, tableFor } from "../eval/table.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { episodeTotals } from "../store/episodes.js";
import { withStore } from "../store/open.js";
import { getRun, latestRunId } from "../store/runs.js";
import { passTableJson } from "../report/pass-table.js";
import { buildStudyReport } from "../report/study-build.js";
import { renderAnalyses } from "../report/study-tables.js";
import { envHasNoOracle, noOracleNote } from "../report/no-oracle.js";
import { runUrl } from "../report/view-links.js";
import { storeWaitFields, storeWaits } from "./store-flags.js";
import { defineCommand } from "./command.js";
import { viewUrlField } from "./view-url-flag.js";
import { printRunTable } from "./run-summary.js";

const schema = z.object({
  run: z.string().optional().describe("run name (default: the latest run)"),
  db: z.string().min(1).default("budgetrl.db").describe("run store: an SQLite file, or a postgres:// URL"),
  ...storeWaitFields,
  ks: integerListField().optional().meta({ flag: "k" }).describe("comma-separated K values (default: the run's)"),
  json: z.boolean().default(false).describe("print the table as JSON"),
  analyses: z
    .boolean()
    .default(false)
    .describe("also print the run's analyses: step quality, natural recovery, horizon (needs oracle annotations)"),
  viewUrl: viewUrlField,
});

/** Where the run is in a running view: its page, then its episodes at each budget of the table. */
function viewLines(viewUrl: string, run: string, table: PassAtKTTable): string {
  const budgets = table.budgets.map((spec) => `  T = ${spec.label}: ${runUrl(viewUrl, run, { budget: spec.label })}\n`);
  return `in the view: ${runUrl(viewUrl, run)}\n${budgets.join("")}`;
}

export const showCommand = defineCommand({
  name: "show",
  summary: "Print the Pass@(K,T) table of a stored run.",
  positionals: ["run"],
  schema,
  examples: [
    "budgetrl show sokoban-20261202-101500 --db runs.db",
    "budgetrl show --db runs.db --k 1,8",
    "budgetrl show sokoban-20261202-101500 --db runs.db --analyses",
    "budgetrl show --db runs.db --view-url http://127.0.0.1:8400",
  ],
  async run(options, io) {
    return withStore(options.db, { mode: "read", ...storeWaits("show", options, io) }, async (store) => {
      const run = options.run ?? (await latestRunId(store));
      if (run === undefined) throw new ConfigError("RUN", `${options.db} has no runs`);
      const record = await getRun(store, run);
      const config = parseEvalConfig(record.config);
      const ks = options.ks ?? config.ks;
      const outcomes = await storedRunOutcomes(store, run, config);
      const table = tableFor(config, outcomes, ks);
      const totals = await episodeTotals(store, run);
      const errored = { errors: totals.errors, of: totals.done + totals.errors };
      if (options.analyses) {
        const report = await buildStudyReport(store, {
          selection: { runs: [run] },
          bootstrap: config.bootstrap,
          seed: config.seed,
        });
        const analyses = renderAnalyses(report);
        // Why a run has no analyses to show: its env has no oracle, or it was evaluated without annotations.
        const note =
          analyses !== ""
            ? undefined
            : envHasNoOracle(config.env)
              ? noOracleNote(config.env)
              : `no oracle annotations in run ${run}: its analyses need an evaluation with --annotate (the default)`;
        if (options.json) {
          const { stepQuality, recovery, perturbation, horizon } = report;
          const json = {
            run,
            db: store.location,
            table: passTableJson(table),
            stepQuality,
            recovery,
            perturbation,
            horizon,
          };
          io.stdout(`${JSON.stringify(note === undefined ? json : { ...json, note }, null, 2)}\n`);
        } else {
          printRunTable(io, run, store.location, config, table, false, errored);
          io.stdout(`\n${note ?? analyses}\n`);
        }
      } else printRunTable(io, run, store.location, config, table, options.json, errored);
      if (options.viewUrl !== undefined && !options.json) io.stdout(viewLines(options.viewUrl, run, table));
      if (record.status !== "complete") {
        // How an openai policy reached its server is never stored: the command needs the flags it ran with.
        const client =
          config.policy.kind === "openai" ? ", with the --base-url (and --api-key-env, if any) it ran with" : "";
        io.stderr(`run ${run} is not complete; continue it with: ${evalResumeCommand(run, store.location)}${client}\n`);
      }
      return 0;
    });
  },
});
