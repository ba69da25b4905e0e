// The flags of the commands that open a run store (show, export, runs, report, sft, train; eval has them in its run
// options): how long a wait for the store lasts, a lock held by another program (SQLite) or a PostgreSQL server
// being reconnected to, and the line on stderr that says so once a wait lasted a second (core/wait-notice.ts). A
// wait that runs out is a one-line error with exit 2 (run-cli.ts).
import { z } from "zod";
import type { OpenStoreOptions } from "../store/open.js";
import type { CliIo } from "./command.js";

export const storeWaitFields = {
  busyTimeout: z
    .number()
    .min(0)
    .max(3600)
    .default(60)
    .describe(
      "seconds to wait for a run store another program holds locked (SQLite), saying so on stderr after a second",
    ),
  reconnectTimeout: z
    .number()
    .min(0)
    .max(86_400)
    .default(60)
    .describe("seconds to keep trying to reach a PostgreSQL store lost mid-command, saying so after a second"),
};

/** The store options of the flags, waits told on stderr as `budgetrl COMMAND: ...`. */
export function storeWaits(
  command: string,
  flags: { readonly busyTimeout: number; readonly reconnectTimeout: number },
  io: Pick<CliIo, "stderr">,
): Pick<OpenStoreOptions, "busyTimeoutMs" | "reconnectMs" | "onWait"> {
  return {
    busyTimeoutMs: flags.busyTimeout * 1000,
    reconnectMs: flags.reconnectTimeout * 1000,
    onWait: (line) => io.stderr(`budgetrl ${command}: ${line}\n`),
  };
}
