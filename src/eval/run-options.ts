// How an evaluation runs, as opposed to what it measures: options that never change its results, so they are not
// stored with the run (a resumed run may use others) and `--resume` accepts them. Declared once, with defaults,
// for `evaluate()` and the `budgetrl eval` flags alike.
//   concurrency   episodes in flight at once
//   turnTimeout   seconds one policy call may take; a slower call ends its episode in a policy error, which is not
//                 counted and which `--resume` retries, so a hung policy never hangs a run
//   busyTimeout   seconds to wait while another process writes to the same store (several evals may share one)
import { z } from "zod";
import { parseConfig } from "../core/config.js";

export const evalRunOptionsSchema = z.object({
  concurrency: z.number().int().min(1).max(1024).default(1).describe("episodes in flight at once (raise for remote policies)"),
  turnTimeout: z.number().positive().max(86_400).default(600).describe("seconds one policy call may take; a slower one ends its episode in a policy error that --resume retries"),
  busyTimeout: z.number().min(0).max(3600).default(10).describe("seconds to wait for a run store another process is writing to"),
});

export type EvalRunOptions = z.output<typeof evalRunOptionsSchema>;

/** Validate run options (any object holding them; other keys are ignored); throws ConfigError naming the field. */
export function parseEvalRunOptions(input: Partial<Record<keyof EvalRunOptions, unknown>>): Readonly<EvalRunOptions> {
  return parseConfig(evalRunOptionsSchema, { concurrency: input.concurrency, turnTimeout: input.turnTimeout, busyTimeout: input.busyTimeout });
}
