// `budgetrl bfcl run`: execute a call list on a fresh BFCL instance set and print every call's result and the
// final public state of every involved instance, as JSON with sorted keys (for debugging agents).
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "../core/errors.js";
import { CALLABLE_FUNCTIONS } from "../envs/bfcl/context.js";
import { bfclRun } from "../envs/bfcl/run-calls.js";
import { defineCommand } from "./command.js";

const schema = z.object({
  dataDir: z
    .string()
    .optional()
    .describe("folder with upstream's BFCL data layout (default: the copy bundled with budgetrl, data/bfcl)"),
  entry: z.string().describe("entry id, e.g. multi_turn_base_0"),
  calls: z
    .string()
    .optional()
    .describe("JSON file: one list of call strings per user turn (default: the entry's ground truth)"),
  callable: z
    .enum(CALLABLE_FUNCTIONS)
    .default("unexcluded")
    .describe("which functions may run: offered, unexcluded, all"),
});

export const bfclRunCommand = defineCommand({
  name: "bfcl run",
  summary: "Run a BFCL call list on fresh instances and print each result and the final state as JSON.",
  schema,
  examples: [
    "budgetrl bfcl run --entry multi_turn_base_0",
    "budgetrl bfcl run --entry multi_turn_base_0 --calls my-calls.json",
    "budgetrl bfcl run --data-dir ../my-bfcl-data --entry multi_turn_base_0",
  ],
  async run(options, io) {
    let calls: string | undefined;
    if (options.calls !== undefined) {
      try {
        calls = readFileSync(options.calls, "utf8");
      } catch (error) {
        throw new ConfigError("--calls", `cannot read ${options.calls}: ${(error as Error).message}`);
      }
    }
    const dataDir = options.dataDir === undefined ? {} : { dataDir: options.dataDir };
    io.stdout(
      `${bfclRun({ ...dataDir, entry: options.entry, callable: options.callable, ...(calls === undefined ? {} : { calls }) })}\n`,
    );
    return 0;
  },
});
