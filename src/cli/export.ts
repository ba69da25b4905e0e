// `budgetrl export RUN --format jsonl`: one trajectory per line, in key order. A file is written under a temporary
// name and renamed when complete (a failure or Ctrl-C leaves an existing file as it was); on stdout, a reader that
// goes away (`| head`) ends the export quietly.
import { z } from "zod";
import { ConfigError, StoppedError } from "../core/errors.js";
import { fileOutputProblem } from "../core/output-path.js";
import { exportRunJsonl } from "../store/export.js";
import { withStore } from "../store/open.js";
import { storeWaitFields, storeWaits } from "./store-flags.js";
import { defineCommand } from "./command.js";

const schema = z.object({
  run: z.string().describe("run name (see `budgetrl runs`)"),
  db: z.string().min(1).default("budgetrl.db").describe("run store: an SQLite file, or a postgres:// URL"),
  ...storeWaitFields,
  format: z.enum(["jsonl"]).default("jsonl").describe("output format"),
  out: z.string().default("-").describe("output file (- for stdout); written whole or not at all"),
});

/** Refuse an output path that cannot be written before any work: a missing folder, or a folder itself. */
function checkOut(out: string): void {
  const problem = out === "-" ? undefined : fileOutputProblem(out);
  if (problem !== undefined) throw new ConfigError("--out", problem);
}

export const exportCommand = defineCommand({
  name: "export",
  summary: "Export a run's trajectories (one JSON object per episode, with its turns).",
  positionals: ["run"],
  schema,
  interruptible: true,
  examples: [
    "budgetrl export sokoban-20261202-101500 --db runs.db --format jsonl --out run.jsonl",
    "budgetrl export sokoban-20261202-101500 --db runs.db | head -1",
  ],
  async run(options, io, context) {
    checkOut(options.out);
    try {
      const lines = await withStore(options.db, { mode: "read", ...storeWaits("export", options, io) }, (store) =>
        exportRunJsonl(store, options.run, options.out, { signal: context.signal }),
      );
      if (options.out !== "-") io.stderr(`wrote ${lines} trajectories to ${options.out}\n`);
      return 0;
    } catch (error) {
      if (error instanceof StoppedError && options.out !== "-")
        throw new StoppedError(`export stopped; ${options.out} was left as it was`);
      throw error;
    }
  },
});
