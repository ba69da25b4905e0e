// A small real store for the view's tests, made by evaluate() as a user's runs are: two noisy oracles of different
// strength on the same frozenlake tasks (common random numbers: their episodes can be laid side by side), a
// teacher-forced run (the expert's moves marked), a replayed "model" whose replies are markup and script (what the
// view must show as text), and a BFCL entry played on its ground truth (calls, results and state checks).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { evaluate } from "../../src/eval/evaluate.js";
import { openStore } from "../../src/store/open.js";
import { taskHeads } from "../../src/store/runs.js";

/** Replies no page may turn into markup: each would add an element, or run, if it were not escaped. */
export const HOSTILE_REPLIES = [
  '<b id="injected-bold">bold</b><img id="injected-img" src="x" onerror="window.__xss = 1">',
  "<script>window.__xss = 2</script>",
  '</pre><div id="injected-div">out of the pre</div>',
] as const;

export const VIEW_RUNS = {
  strong: "fl-strong",
  weak: "fl-weak",
  forced: "fl-forced",
  hostile: "fl-hostile",
  bfcl: "bfcl-truth",
} as const;

const common = {
  env: "frozenlake",
  tasks: 6,
  samples: 3,
  ks: [1, 2],
  budgets: ["50%", "100%"],
  seed: 7,
  bootstrap: 200,
  concurrency: 2,
} as const;

/** Build the store at `dir`/view.db; returns its path. */
export async function buildViewStore(dir: string): Promise<string> {
  const db = join(dir, "view.db");
  const when = (second: number) => () => new Date(`2026-02-01T10:00:0${second}Z`);
  await evaluate({ ...common, policy: "noisy-oracle:0.1", db, run: VIEW_RUNS.strong, now: when(1) });
  await evaluate({ ...common, policy: "noisy-oracle:0.6", db, run: VIEW_RUNS.weak, now: when(2) });
  await evaluate({
    ...common,
    policy: "noisy-oracle:0.5",
    samples: 1,
    ks: [1],
    intervention: "teacher-forced",
    db,
    run: VIEW_RUNS.forced,
    now: when(3),
  });
  const store = await openStore(db, { mode: "read" });
  const ids = (await taskHeads(store, VIEW_RUNS.strong)).map((head) => head.id);
  await store.close();
  const script = join(dir, "hostile.json");
  writeFileSync(script, JSON.stringify(Object.fromEntries(ids.map((id) => [id, [...HOSTILE_REPLIES]]))));
  await evaluate({
    ...common,
    policy: `replay:${script}`,
    samples: 1,
    ks: [1],
    db,
    run: VIEW_RUNS.hostile,
    now: when(4),
  });
  await evaluate({
    env: "bfcl",
    tasks: 1,
    samples: 1,
    ks: [1],
    budgets: ["100%"],
    budgetScope: "user-turn",
    policy: "replay",
    seed: 1,
    bootstrap: 0,
    db,
    run: VIEW_RUNS.bfcl,
    now: when(5),
  });
  return db;
}
