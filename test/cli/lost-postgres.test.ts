// PostgreSQL (the run store) lost in the middle of `budgetrl eval`, on a cluster of the test's own
// (throwaway-services.ts), never the shared one. Mid-run for sure: once the first episodes are stored, the test
// locks the episodes table (writes wait, reads do not), so the run cannot end before the server stops. A server
// that stays away past --reconnect-timeout ends the eval with exit 2 and one line naming it and the command to
// resume; every committed episode is kept, and once it is back that command (run as printed) completes the run. One
// that comes back in time is waited for, and the run completes. Either way the export equals an uninterrupted run's.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { beforeAll, expect, it } from "vitest";
import {
  exported,
  expectCompleted,
  LOST_RUN,
  LOST_RUN_EPISODES,
  referenceExport,
  resumeCommandOf,
} from "../helpers/lost-run.js";
import { describeWithOwnServices, throwawayPostgres, type ThrowawayPostgres } from "../helpers/throwaway-services.js";
import { until } from "../helpers/until.js";
import { argvOf, cli, finished, spawnCli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-lost-postgres-"));
let reference = "";

beforeAll(async () => {
  reference = await referenceExport(dir);
}, 60_000);

/** Episodes stored so far (0 before the eval made its tables). */
async function stored(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return Number(
      (await client.query<{ count: string }>("SELECT COUNT(*) AS count FROM episodes")).rows[0]?.count ?? 0,
    );
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Once episodes are stored, hold the table's lock until the server stops: the eval's next write waits. How many
 * were stored then. */
async function holdMidRun(server: ThrowawayPostgres): Promise<number> {
  await until(
    () => stored(server.url),
    (count) => count > 0,
    "episodes stored",
  );
  const client = new pg.Client({ connectionString: server.url });
  // Its connection ends with the server: that is expected, not an error of the test.
  client.on("error", () => undefined);
  await client.connect();
  await client.query("BEGIN");
  await client.query("LOCK TABLE episodes IN SHARE MODE");
  const count = Number(
    (await client.query<{ count: string }>("SELECT COUNT(*) AS count FROM episodes")).rows[0]?.count,
  );
  expect(count).toBeLessThan(LOST_RUN_EPISODES);
  return count;
}

describeWithOwnServices(["postgres"], "PostgreSQL lost in the middle of an eval", () => {
  it("stays away (pg_ctl stop -m immediate): a line when the wait passes a second, one line at the end, exit 2, the stored episodes kept; the printed command completes the run once it is back", async () => {
    const server = await throwawayPostgres();
    try {
      const result = finished(spawnCli(["eval", ...LOST_RUN, "--db", server.url, "--reconnect-timeout", "2"]));
      const held = await holdMidRun(server);
      await server.stop("immediate");
      const hint = resumeCommandOf(
        await result,
        /^budgetrl eval: lost the connection to PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres /,
      );
      expect(hint).toBe(`budgetrl eval --resume --run k --db ${server.url}`);
      await server.start();
      expect(await stored(server.url)).toBe(held);
      const resumed = await cli(...argvOf(hint), "--no-progress");
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(new RegExp(`run k: 1200 episodes \\(${held} already stored\\)`));
      expect(await exported(server.url, dir)).toBe(reference);
    } finally {
      await server.remove();
    }
  }, 60_000);

  it("comes back in time (pg_ctl stop -m fast, then start): the eval waits (saying so if it lasts a second), and completes", async () => {
    const server = await throwawayPostgres();
    try {
      const result = finished(spawnCli(["eval", ...LOST_RUN, "--db", server.url, "--reconnect-timeout", "30"]));
      await holdMidRun(server);
      await server.stop("fast");
      await server.start();
      expectCompleted(await result);
      expect(await exported(server.url, dir)).toBe(reference);
    } finally {
      await server.remove();
    }
  }, 60_000);
});
