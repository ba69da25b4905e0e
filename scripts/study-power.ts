// What a study's design can detect, and what another design would: reads a study's report.json (a pilot's, on seeds
// the study proper will not use) and, for every comparison that decides a claim where the plan decides it, splits
// its variance into the part that more seeds narrow and the part that more tasks narrow (metrics/crossed-mean.ts:
// A = sigma_s^2 / S + sigma_e^2 / (S T), W = sigma_t^2 / T, residual sum C = sigma_e^2 / (S T)), then gives the
// smallest difference each design of S seeds and T held-out tasks per env would detect at 80% power with the plan's
// two-sided 95% interval:
//   half(S, T) = sqrt(t_{S-1}^2 (sigma_s^2 / S + sigma_e^2 / (S T)) + t_{dfW}^2 sigma_t^2 / T)
//   detectable = half x (z_0.975 + z_0.8) / z_0.975          (effect-outcome.ts)
// Only the variance is read, never a difference's sign or size: the design is chosen from the power each claim needs.
//   npx tsx scripts/study-power.ts PILOT_DIR [--seeds 6,8] [--tasks 150,100,75,60]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { studentTQuantile } from "../src/metrics/student-t.js";
import type { JsonEstimate, StudyReport } from "../src/report/study-model.js";

const Z_HALF = 1.959963984540054;
const Z_POWER = 0.8416212335729143;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seeds: { type: "string", default: "3,6,8" }, tasks: { type: "string", default: "150,100,75,60" } },
});
const folder = positionals[0];
if (folder === undefined) {
  console.error("usage: npx tsx scripts/study-power.ts STUDY_DIR [--seeds 6,8] [--tasks 150,100,75]");
  process.exit(2);
}
const report = JSON.parse(readFileSync(join(folder, "report.json"), "utf8")) as StudyReport;
const list = (text: string): number[] => text.split(",").map(Number);
const seedOptions = list(values.seeds);
const taskOptions = list(values.tasks);

interface Components {
  readonly seed: number;
  readonly task: number;
  readonly residual: number;
  readonly seeds: number;
  readonly tasksPerEnv: number;
}

/** sigma_s^2, sigma_t^2 and sigma_e^2 of an estimate (per seed, per task, per cell), from its parts. */
function components(estimate: JsonEstimate, envs: number): Components | null {
  const parts = estimate.variance;
  const seeds = estimate.seeds ?? 1;
  if (parts === undefined || parts.seeds === null || parts.tasks === null || parts.residual === null) return null;
  const tasksPerEnv = estimate.tasks / envs;
  return {
    seed: Math.max(0, seeds * (parts.seeds - parts.residual)),
    task: parts.tasks * tasksPerEnv,
    residual: parts.residual * seeds * tasksPerEnv,
    seeds,
    tasksPerEnv,
  };
}

function detectable(parts: Components, seeds: number, tasks: number): number {
  const seedPart = parts.seed / seeds + parts.residual / (seeds * tasks);
  const taskPart = parts.task / tasks;
  const half = Math.sqrt(
    studentTQuantile(0.975, seeds - 1) ** 2 * seedPart +
      studentTQuantile(0.975, Math.max(1, tasks - 1)) ** 2 * taskPart,
  );
  return (half * (Z_HALF + Z_POWER)) / Z_HALF;
}

const pct = (value: number): string => (100 * value).toFixed(1).padStart(5);
console.log(
  `pilot: ${folder}, seeds ${report.seeds.join(", ")}; sd in points: seeds (sigma_s), tasks (sigma_t), residual (sigma_e); detectable at 80% power, in points`,
);
console.log(
  [
    "claim / comparison".padEnd(52),
    "  s_s   s_t   s_e",
    " now ",
    ...seedOptions.flatMap((seeds) => taskOptions.map((tasks) => `S${seeds}T${tasks}`.padStart(8))),
  ].join(" "),
);
for (const finding of report.findings) {
  const decided = finding.scopes.find(
    (scope) => scope.seed === null && finding.decidedBy.startsWith(`${scope.scope},`),
  );
  for (const comparison of decided?.comparisons ?? []) {
    if (!comparison.decides) continue;
    const envs = comparison.scope.split(" + ").length;
    const parts = components(comparison.difference, envs);
    const name = `${finding.id}: ${comparison.metric}`.slice(0, 52).padEnd(52);
    if (parts === null) {
      console.log(`${name} (${comparison.outcome}: no variance parts)`);
      continue;
    }
    console.log(
      [
        name,
        `${pct(Math.sqrt(parts.seed))} ${pct(Math.sqrt(parts.task))} ${pct(Math.sqrt(parts.residual))}`,
        pct(comparison.detectable ?? NaN),
        ...seedOptions.flatMap((seeds) => taskOptions.map((tasks) => pct(detectable(parts, seeds, tasks)).padStart(8))),
      ].join(" "),
    );
  }
}
