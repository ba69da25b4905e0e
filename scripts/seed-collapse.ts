// Where a model collapses in some seeds, read from the stored episodes of a study: for one env and budget mode, per
// model and seed, Pass@1 at each budget, the share of the policy's turns that were invalid, how the failed episodes
// ended (a wrong move that ends the episode, out of turns, an error), and the invalid replies themselves, most common
// first, with the observation's last line before the first of them. docs/study.md's account of the hidden-budget
// collapse comes from this script's output.
//   npx tsx scripts/seed-collapse.ts STUDY_DIR [--env vault] [--mode hidden] [--models grpo-full,base] [--examples 3]
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Episode } from "../src/core/episode.js";
import { listRuns, loadTasks, openStore, readEpisodes } from "../src/store/index.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    env: { type: "string", default: "vault" },
    mode: { type: "string", default: "hidden" },
    models: { type: "string" },
    examples: { type: "string", default: "3" },
  },
});
const folder = positionals[0];
if (folder === undefined) {
  console.error("usage: npx tsx scripts/seed-collapse.ts STUDY_DIR [--env vault] [--mode hidden] [--models a,b]");
  process.exit(2);
}
const wanted = values.models?.split(",");
const examples = Number(values.examples);

interface Cell {
  episodes: number;
  successes: number;
  turns: number;
  invalid: number;
  ends: Map<string, number>;
}

const pct = (part: number, whole: number): string => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`);
const lastLine = (text: string): string => text.trim().split("\n").at(-1) ?? "";

const store = await openStore(join(folder, "study.db"), { readonly: true });
try {
  const pattern = new RegExp(`^seed-(\\d+)/${values.env}/([^/]+)/${values.mode}$`);
  const runs = (await listRuns(store))
    .map((run) => ({ run, match: pattern.exec(run.id) }))
    .filter((entry) => entry.match !== null && (wanted === undefined || wanted.includes(entry.match[2]!)));
  for (const { run, match } of runs) {
    const cells = new Map<string, Cell>();
    const replies = new Map<string, { count: number; context: string }>();
    const tasks = new Map((await loadTasks(store, run.id)).map((task) => [task.index, task.id]));
    for await (const episode of readEpisodes(store, run.id, run.env, tasks) as AsyncGenerator<Episode>) {
      const label = episode.budget.label;
      const cell = cells.get(label) ?? { episodes: 0, successes: 0, turns: 0, invalid: 0, ends: new Map() };
      cells.set(label, cell);
      cell.episodes++;
      if (episode.success) cell.successes++;
      else {
        const end =
          episode.turns.at(-1)?.invalid === true ? `${episode.stopReason} after an invalid reply` : episode.stopReason;
        cell.ends.set(end, (cell.ends.get(end) ?? 0) + 1);
      }
      let context = "";
      for (const turn of episode.turns) {
        cell.turns++;
        if (!turn.invalid) {
          context = lastLine(turn.observation.map((message) => message.content).join("\n"));
          continue;
        }
        cell.invalid++;
        const reply = turn.action.content.slice(0, 60);
        const entry = replies.get(reply) ?? { count: 0, context: `turn ${turn.index}, after "${context}"` };
        entry.count++;
        replies.set(reply, entry);
      }
    }
    console.log(`\nseed ${match![1]} ${match![2]} (${run.id}, ${run.policy})`);
    for (const [label, cell] of cells)
      console.log(
        `  ${label.padEnd(6)} Pass@1 ${pct(cell.successes, cell.episodes).padStart(6)}  invalid ${pct(cell.invalid, cell.turns).padStart(6)} of ${cell.turns} turns  failures: ${[...cell.ends].map(([end, count]) => `${end} ${count}`).join(", ")}`,
      );
    const common = [...replies].sort((x, y) => y[1].count - x[1].count).slice(0, examples);
    for (const [reply, entry] of common)
      console.log(`  invalid x${entry.count}: ${JSON.stringify(reply)} (first: ${entry.context})`);
  }
} finally {
  await store.close();
}
