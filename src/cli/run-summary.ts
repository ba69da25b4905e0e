// What eval and show print about a run: the header and the Pass@(K,T) table (or both as JSON), and where the
// run is stored.
import { encodeEvalConfig, type EvalConfig } from "../eval/config.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { passTableJson, renderPassTable } from "../report/pass-table.js";
import { runHeader } from "../report/run-header.js";
import type { CliIo } from "./command.js";

export function printRunTable(io: CliIo, run: string, db: string, config: Readonly<EvalConfig>, table: PassAtKTTable, json: boolean): void {
  if (json) {
    io.stdout(`${JSON.stringify({ run, db, config: encodeEvalConfig(config), table: passTableJson(table) }, null, 2)}\n`);
    return;
  }
  io.stdout(`${runHeader(run, config, table)}\n\n${renderPassTable(table)}\n\nstored in ${db}: budgetrl show ${run} --db ${db}\n`);
}
