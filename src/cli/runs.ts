// `budgetrl runs`: the runs in a store, one line each.
import { z } from "zod";
import { withStore } from "../store/open.js";
import { listRuns } from "../store/runs.js";
import { renderTextTable } from "../report/text-table.js";
import { defineCommand } from "./command.js";

const schema = z.object({
  db: z.string().min(1).default("budgetrl.db").describe("SQLite run store"),
  json: z.boolean().default(false).describe("print as JSON"),
});

export const runsCommand = defineCommand({
  name: "runs",
  summary: "List the runs in a store.",
  schema,
  async run(options, io) {
    const runs = await withStore(options.db, { mode: "read" }, listRuns);
    if (options.json) {
      io.stdout(`${JSON.stringify(runs, null, 2)}\n`);
      return 0;
    }
    if (runs.length === 0) {
      io.stdout(`no runs in ${options.db}\n`);
      return 0;
    }
    const rows = runs.map((run) => [
      run.id,
      run.env,
      run.policy,
      String(run.seed),
      String(run.episodes),
      run.episodes === 0 ? "-" : (run.successes / run.episodes).toFixed(3),
      String(run.errors),
      String(run.contextLength),
      run.status,
      run.createdAt.slice(0, 19).replace("T", " "),
    ]);
    io.stdout(`${renderTextTable(["run", "env", "policy", "seed", "episodes", "success", "errors", "context-length", "status", "created"], rows)}\n`);
    return 0;
  },
});
