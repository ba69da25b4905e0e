// What eval and show print about a run: a header line saying what was measured, the Pass@(K,T) table, and
// where it is stored.
import type { EvalConfig } from "../run/config.js";
import type { PassAtKTTable } from "../metrics/pass-at-kt.js";
import { passTableJson, renderPassTable } from "../report/pass-table.js";
import type { CliIo } from "./command.js";

export function runHeader(run: string, config: Readonly<EvalConfig>, table: PassAtKTTable): string {
  const protocol = config.protocol === "single" ? "one run at the largest T, read at every T" : "a separate run per T";
  const scope = config.budgetScope === "user-turn" ? ", per user turn" : "";
  const intervals = table.bootstrap > 0 ? `95% bootstrap intervals over tasks (${table.bootstrap} resamples)` : "no intervals";
  return [
    `run ${run}: ${config.env} | policy ${config.policy} | ${table.tasks} tasks x ${table.minSamples} samples | budget ${config.budgetMode}${scope} | ${protocol} | seed ${config.seed}`,
    `Pass@(K,T), ${intervals}; AUC = normalised area under the curve over T`,
  ].join("\n");
}

export function printRunTable(io: CliIo, run: string, db: string, config: Readonly<EvalConfig>, table: PassAtKTTable, json: boolean): void {
  if (json) {
    io.stdout(`${JSON.stringify({ run, db, config, table: passTableJson(table) }, null, 2)}\n`);
    return;
  }
  io.stdout(`${runHeader(run, config, table)}\n\n${renderPassTable(table)}\n\nstored in ${db}: budgetrl show ${run} --db ${db}\n`);
}
