// `budgetrl view` as users run it: on an eval's store (a child process: it prints its address, serves the run and every
// episode, and stops on Ctrl-C with exit code 130), beyond loopback with a warning unless an API key is set (then a
// request without it is refused), on a study folder (runs grouped by seed, env and model from the plan), refusing a
// folder that holds no study, and on a PostgreSQL store read by a user granted SELECT alone; show and report link to it.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../src/eval/evaluate.js";
import { encodeStudyConfig, studyConfig } from "../../src/study/config.js";
import { openStore } from "../../src/store/open.js";
import { openViewSource } from "../../src/view/source.js";
import { startViewServer } from "../../src/view/server.js";
import { describeWithServices, freshPostgresDatabase } from "../helpers/services.js";
import { get } from "../view/http.js";
import { allText, cli, exitOf, spawnCli, textMatching } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-view-cli-"));
const db = join(dir, "runs.db");
const run = { env: "frozenlake", policy: "noisy-oracle:0.3", tasks: 4, samples: 2, budgets: ["50%", "100%"] } as const;

beforeAll(async () => {
  await evaluate({ ...run, bootstrap: 100, db, run: "fl" });
});

/** Start `budgetrl view ARGS` as a child; its address once it printed it. */
async function started(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawnCli(["view", ...args, "--port", "0"], { env });
  const exit = exitOf(child);
  const stderr = allText(child.stderr!);
  const line = await textMatching(child.stdout!, /Ctrl-C stops\n/);
  const url = /on (http:\/\/[^\s;]+\/)/.exec(line)![1]!;
  return { child, exit, stderr, line, url };
}

describe("budgetrl view", () => {
  it("serves an eval's run and every episode, and stops on Ctrl-C with exit code 130", async () => {
    const view = await started(["--db", db]);
    try {
      expect(view.line).toContain(`${db} on http://127.0.0.1:`);
      expect((await get(view.url, "/")).body).toContain('data-run="fl"');
      const page = await get(view.url, "/run?id=fl");
      expect(page.status).toBe(200);
      expect(page.body).toContain("16 episodes");
      const store = await openStore(db, { mode: "read" });
      const keys = await store.sql.rows<[number, string, number]>(
        "SELECT task_index, budget_label, sample FROM episodes WHERE run_id = 'fl'",
      );
      await store.close();
      for (const [task, budget, sample] of keys) {
        const episode = await get(
          view.url,
          `/episode?run=fl&task=${task}&budget=${encodeURIComponent(budget)}&sample=${sample}`,
        );
        expect(episode.status).toBe(200);
        expect(episode.body).toContain('class="turn"');
      }
    } finally {
      view.child.kill("SIGINT");
    }
    expect((await view.exit).code).toBe(130);
    expect(await view.stderr).toContain("budgetrl view: stopped");
  });

  it("warns when it listens beyond loopback without an API key", async () => {
    const view = await started(["--db", db, "--host", "0.0.0.0"]);
    view.child.kill("SIGINT");
    expect((await view.exit).code).toBe(130);
    expect(await view.stderr).toMatch(/warning: listening on 0\.0\.0\.0, beyond this machine, without an API key/);
  });

  it("takes the key from BUDGETRL_API_KEY: no warning, a request without it refused", async () => {
    const view = await started(["--db", db, "--host", "0.0.0.0"], { ...process.env, BUDGETRL_API_KEY: "env-key" });
    try {
      expect(view.line).toContain("API key required");
      expect(view.line).not.toContain("env-key");
      const local = view.url.replace("0.0.0.0", "127.0.0.1");
      expect((await get(local, "/")).status).toBe(401);
      expect((await get(local, "/", { authorization: "Bearer env-key" })).status).toBe(200);
    } finally {
      view.child.kill("SIGINT");
    }
    expect((await view.exit).code).toBe(130);
    expect(await view.stderr).not.toContain("warning");
  });

  it("refuses a port in use in one line with exit code 2, naming the flag", async () => {
    const source = await openViewSource(db);
    const taken = await startViewServer({ source, port: 0 });
    try {
      const refused = await cli("view", "--db", db, "--port", String(taken.port));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /^budgetrl view: --port: cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE.*\nHINT: pick another --port, or 0 for a free one/,
      );
    } finally {
      await taken.close();
      await source.store.close();
    }
  });

  it("refuses a folder without a study, and a store given twice, in one line with exit code 2", async () => {
    const empty = join(dir, "not-a-study");
    mkdirSync(empty);
    const refused = await cli("view", empty);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not-a-study is a folder without a study \(no study\.json\)/);
    const twice = await cli("view", empty, "--db", db);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/db: give a study folder or store as the argument, or --db, not both/);
  });

  it("is linked from show and report with --view-url, an address that is not http refused", async () => {
    const shown = await cli("show", "fl", "--db", db, "--view-url", "http://127.0.0.1:8400");
    expect(shown.stdout).toContain(
      "in the view: http://127.0.0.1:8400/run?id=fl\n  T = 50%: http://127.0.0.1:8400/run?id=fl&budget=50%25#episodes\n  T = 100%: http://127.0.0.1:8400/run?id=fl&budget=100%25#episodes\n",
    );
    const out = join(dir, "linked.html");
    const reported = await cli("report", "--db", db, "--out", out, "--bootstrap", "0", "--view-url", "http://h:1");
    expect(reported.code).toBe(0);
    expect(readFileSync(out, "utf8")).toContain('<a href="http://h:1/run?id=fl&amp;budget=50%25#episodes">');
    for (const command of ["show", "report"]) {
      const refused = await cli(command, "--db", db, "--view-url", "ftp://h/");
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/view-url/);
    }
  });

  it("groups a study folder's runs by seed, env and model, from the study's plan", async () => {
    const study = join(dir, "study");
    mkdirSync(study);
    const config = studyConfig({ preset: "quick" });
    writeFileSync(join(study, "study.json"), JSON.stringify(encodeStudyConfig(config)));
    const env = config.envs[0]!.env;
    const seed = config.seeds[0]!;
    for (const name of [`seed-${seed}/${env}/base/announced`, `ranges/${env}/oracle/announced`])
      await evaluate({
        env,
        policy: "noisy-oracle:0.2",
        tasks: 2,
        samples: 1,
        bootstrap: 0,
        db: join(study, "study.db"),
        run: name,
      });
    const source = await openViewSource(study);
    const server = await startViewServer({
      source: source,
      port: 0,
    });
    try {
      const body = (await get(server.url, "/")).body;
      expect(body).toContain(`<th colspan="10">seed ${seed} · ${env}</th>`);
      expect(body).toContain(`<th colspan="10">ranges · ${env}</th>`);
      expect(body).toMatch(/<td>base<\/td>\s*<td>announced<\/td>/);
      expect(body).toMatch(/<td>oracle<\/td>\s*<td>announced<\/td>/);
      expect(source.label).toBe(`study ${study} (${join(study, "study.db")})`);
    } finally {
      await server.close();
      await source.store.close();
    }
  });
});

describeWithServices(["postgres"], "budgetrl view on PostgreSQL", () => {
  it("reads a store with a user granted SELECT alone, and writes nothing even where it could", async () => {
    const url = new URL(await freshPostgresDatabase());
    await evaluate({ ...run, bootstrap: 0, db: url.toString(), run: "pg" });
    const schema = /search_path=(\S+)/.exec(url.searchParams.get("options") ?? "")![1]!;
    const reader = `reader_${schema}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      await admin.query(`CREATE ROLE ${reader} LOGIN`);
      await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${reader}`);
      await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${reader}`);
    } finally {
      await admin.end();
    }
    const readerUrl = new URL(url);
    readerUrl.username = reader;
    for (const target of [readerUrl.toString(), url.toString()]) {
      const source = await openViewSource(target);
      const server = await startViewServer({ source, port: 0 });
      try {
        expect((await get(server.url, "/")).body).toContain('data-run="pg"');
        expect((await get(server.url, "/run?id=pg")).body).toContain("16 episodes");
        expect((await get(server.url, "/episode?run=pg&task=0&budget=50%25&sample=1")).status).toBe(200);
        await expect(source.store.sql.run("DELETE FROM runs")).rejects.toThrow(
          /read-only transaction|permission denied/,
        );
      } finally {
        await server.close();
        await source.store.close();
      }
    }
  });
});
