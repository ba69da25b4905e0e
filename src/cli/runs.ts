// `budgetrl runs`: the runs in a store, one line each, with the episodes that ended in a policy error (not
// counted, retried by --resume) and those ended by the model's context length (counted as failures).
import { z } from "zod";
import { openStore } from "../store/open.js";
import { listRuns } from "../store/runs.js";
import { renderTextTable } from "../report/text-table.js";
import { defineCommand } from "./command.js";

const schema = z.object({
  db: z.string().default("budgetrl.db").describe("SQLite run store"),
  json: z.boolean().default(false).describe("print as JSON"),
});

export const runsCommand = defineCommand({
  name: "runs",
  summary: "List the runs in a store.",
  schema,
  async run(options, io) {
    const store = openStore(options.db, { readonly: true });
    try {
      const runs = listRuns(store);
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
    } finally {
      store.close();
    }
  },
});
