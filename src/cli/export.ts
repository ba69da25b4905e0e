// `budgetrl export RUN --format jsonl`: one trajectory per line, in key order.
import { z } from "zod";
import { openStore } from "../store/open.js";
import { exportRunJsonl } from "../store/export.js";
import { defineCommand } from "./command.js";

const schema = z.object({
  run: z.string().describe("run name (see `budgetrl runs`)"),
  db: z.string().default("budgetrl.db").describe("SQLite run store"),
  format: z.enum(["jsonl"]).default("jsonl").describe("output format"),
  out: z.string().default("-").describe("output file (- for stdout)"),
});

export const exportCommand = defineCommand({
  name: "export",
  summary: "Export a run's trajectories (one JSON object per episode, with its turns).",
  positionals: ["run"],
  schema,
  examples: ["budgetrl export sokoban-20261202-101500 --db runs.db --format jsonl --out run.jsonl"],
  async run(options, io) {
    const store = openStore(options.db, { readonly: true });
    try {
      const lines = await exportRunJsonl(store, options.run, options.out);
      if (options.out !== "-") io.stderr(`wrote ${lines} trajectories to ${options.out}\n`);
      return 0;
    } finally {
      store.close();
    }
  },
});
