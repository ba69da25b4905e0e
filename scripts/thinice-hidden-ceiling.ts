// The ceiling of teacher-forced step quality under hidden budgets on thin ice (src/envs/thinice/hidden-ceiling.ts),
// on the study's held-out tasks: the first `tasks` default maps, distinct in structure, of the study's held-out draw
// (the full preset's 150 with heldOutSeed 1; the quick preset's 40 are their first 40).
//   npx tsx scripts/thinice-hidden-ceiling.ts [tasks=150] [heldOutSeed=1]
import { taskDraws } from "../src/agent/task-draws.js";
import { thinIceConfigSchema } from "../src/envs/thinice/config.js";
import { hiddenCeiling, maxMinCeiling, type CeilingView, type TieBreak } from "../src/envs/thinice/hidden-ceiling.js";
import { thinice, type ThinIceTask } from "../src/envs/thinice/index.js";
import { MULTIPLE_LABELS } from "../src/envs/thinice/tradeoff.js";
import { heldOutSet } from "../src/study/plan.js";

/** The study's held-out thin ice tasks: its held-out set's draw (src/study/plan.ts, src/agent/task-draws.ts). */
function studyHeldOutMaps(tasks: number, seed: number): ThinIceTask[] {
  const set = heldOutSet({ heldOutSeed: seed, heldOutTasks: tasks }, { env: "thinice", heldOut: "structure" });
  const draws = taskDraws(thinice(), set.seed, { count: tasks, field: "tasks", distinct: "structure" });
  return Array.from({ length: tasks }, (_, index) => draws.make(index) as ThinIceTask);
}

const tasks = Number(process.argv[2] ?? 150);
const studySeed = Number(process.argv[3] ?? 1);
const maps = studyHeldOutMaps(tasks, studySeed);
const { q } = thinIceConfigSchema.parse({});
const percent = (value: number): string => (100 * value).toFixed(1).padStart(6);
const row = (name: string, values: readonly number[], tail = ""): string =>
  `${name.padEnd(36)}${values.map((value) => ` ${percent(value)}`).join("")}${tail}`;
console.log(
  `${tasks} held-out thinice tasks (study seed ${studySeed}, q ${q}): teacher-forced step quality ceiling, %`,
);
console.log(`${"".padEnd(36)}${MULTIPLE_LABELS.map((label) => label.padStart(7)).join("")}   mean`);
for (const view of ["map", "observation", "withTurn"] as CeilingView[]) {
  for (const tieBreak of ["tight", "loose"] as TieBreak[]) {
    const ceiling = hiddenCeiling(maps, q, view, tieBreak);
    console.log(row(`Bayes, ${view}, ties ${tieBreak}`, ceiling.bayes, ` ${percent(ceiling.bayesMean)}`));
  }
  console.log(row(`tuned to one budget, ${view}`, hiddenCeiling(maps, q, view).alone));
  const maxMin = maxMinCeiling(maps, q, view);
  console.log(
    `${`guaranteed at every budget, ${view}`.padEnd(36)} ${percent(maxMin.value)}  (budget weights ${maxMin.weights.map((w) => w.toFixed(3)).join(", ")})`,
  );
}
