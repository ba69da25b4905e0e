// What eval and show print about a run: the header and the Pass@(K,T) table (or both as JSON), how many episodes
// ended in a policy error and are not in the table (a broken policy or model server must never read as a weak
// agent), and where the run is stored.
import { encodeEvalConfig, type EvalConfig } from "../eval/config.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { passTableJson, renderPassTable } from "../report/pass-table.js";
import { policyErrorLine, runHeader, type PolicyErrorCount } from "../report/run-header.js";
import type { CliIo } from "./command.js";

export function printRunTable(
  io: CliIo,
  run: string,
  db: string,
  config: Readonly<EvalConfig>,
  table: PassAtKTTable,
  json: boolean,
  errored: PolicyErrorCount = { errors: 0, of: 0 },
): void {
  if (json) {
    io.stdout(
      `${JSON.stringify({ run, db, config: encodeEvalConfig(config), table: passTableJson(table), errors: errored.errors }, null, 2)}\n`,
    );
    return;
  }
  const errors = policyErrorLine(errored);
  io.stdout(
    `${runHeader(run, config, table)}\n\n${renderPassTable(table)}\n\n${errors === "" ? "" : `${errors}\n`}stored in ${db}: budgetrl show ${run} --db ${db}\n`,
  );
}
