// What a worker does with one job, without Redis: the episode it plays equals the local executor's, a second
// delivery stores nothing new, a job about a run that cannot be built is permanent, and a store that cannot be
// opened is transient (retried).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../../src/eval/evaluate.js";
import { readEpisodeJob, type EpisodeJob } from "../../../src/eval/bullmq/job.js";
import { episodeJobId, runQueueName } from "../../../src/eval/bullmq/names.js";
import { createJobContexts, PermanentJobError } from "../../../src/eval/bullmq/play-job.js";
import { readEpisodes } from "../../../src/store/episodes.js";
import { withStore } from "../../../src/store/open.js";
import { collect } from "../../helpers/collect.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-play-job-"));
const job = (db: string, changes: Partial<EpisodeJob> = {}): EpisodeJob => ({
  version: 1,
  db,
  run: "r",
  taskIndex: 1,
  budget: "50%",
  sample: 2,
  turnTimeout: 60,
  busyTimeout: 5,
  ...changes,
});

describe("a worker's episode job", () => {
  it("plays the episode the local executor stored, and a second delivery stores nothing", async () => {
    const local = join(dir, "local.db");
    await evaluate({
      env: "sokoban",
      policy: "noisy-oracle:0.3",
      tasks: 2,
      samples: 3,
      budgets: ["50%", "100%"],
      seed: 5,
      bootstrap: 0,
      db: local,
      run: "r",
    });
    const [expected] = (
      await withStore(local, { mode: "read" }, (store) => collect(readEpisodes(store, "r", "sokoban", new Map())))
    ).filter((episode) => episode.taskIndex === 1 && episode.budget.label === "50%" && episode.sample === 2);
    // The same run with its episode removed: the job plays it again.
    await withStore(local, { mode: "write" }, (store) =>
      store.sql.run("DELETE FROM episodes WHERE task_index = 1 AND budget_label = '50%' AND sample = 2"),
    );
    await withStore(local, { mode: "write" }, (store) =>
      store.sql.run("DELETE FROM turns WHERE task_index = 1 AND budget_label = '50%' AND sample = 2"),
    );
    const contexts = createJobContexts();
    try {
      expect(await contexts.play(job(local))).toMatchObject({ written: true });
      expect(await contexts.play(job(local))).toMatchObject({ written: false });
    } finally {
      await contexts.close();
    }
    const [played] = (
      await withStore(local, { mode: "read" }, (store) => collect(readEpisodes(store, "r", "sokoban", new Map())))
    ).filter((episode) => episode.taskIndex === 1 && episode.budget.label === "50%" && episode.sample === 2);
    expect(played).toEqual(expected);
  });

  it("is permanent when its run cannot be built, transient when its store cannot be opened", async () => {
    const db = join(dir, "other.db");
    await evaluate({ env: "sokoban", policy: "oracle", tasks: 1, samples: 1, bootstrap: 0, db, run: "known" });
    const contexts = createJobContexts();
    try {
      await expect(contexts.play(job(db, { run: "gone" }))).rejects.toBeInstanceOf(PermanentJobError);
      await expect(contexts.play(job(db, { run: "known", taskIndex: 0, budget: "12%" }))).rejects.toThrow(
        /run known has no budget "12%"/,
      );
      const missing = contexts.play(job(join(dir, "missing.db")));
      await expect(missing).rejects.toThrow(/cannot open the run store .*missing\.db/);
      await expect(missing).rejects.not.toBeInstanceOf(PermanentJobError);
    } finally {
      await contexts.close();
    }
    expect(() => readEpisodeJob({ version: 2, db })).toThrow(/not a budgetrl episode job/);
  });

  it("carries the client options as given, validated by their schema when the worker reads the job", () => {
    const data = {
      ...job("/tmp/runs.db"),
      policyClient: { baseUrl: "http://127.0.0.1:8000/v1", rpm: "600", cache: false },
    };
    expect(readEpisodeJob(data).policyClient).toEqual({ baseUrl: "http://127.0.0.1:8000/v1", rpm: 600, cache: false });
    expect(readEpisodeJob(job("/tmp/runs.db")).policyClient).toBeUndefined();
    expect(() => readEpisodeJob({ ...data, policyClient: { rpm: -1 } })).toThrow(
      /not a budgetrl episode job: policyClient: .*rpm/,
    );
    expect(() => readEpisodeJob({ ...data, policyClient: { apiKey: "secret" } })).toThrow(
      /openai.apiKey: unknown option/,
    );
  });

  it("has an id without ':' that names its run's queue, task, budget and sample", () => {
    const queue = runQueueName("/tmp/runs.db", "r");
    expect(queue).toMatch(/^budgetrl-[0-9a-f]{20}$/);
    expect(runQueueName("/tmp/other.db", "r")).not.toBe(queue);
    expect(episodeJobId(queue, 3, "T:25%", 7)).toBe(`${queue}|3|T%3A25%25|7`);
  });
});
