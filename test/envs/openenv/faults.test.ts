// The openenv env when the server misbehaves: every fault makes its episode an error (never a failure), which
// --resume plays again; a URL that serves no OpenEnv env is refused before the run; invalid replies cost the turn.
import { existsSync, mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataError } from "../../../src/core/errors.js";
import { policyFromFunction } from "../../../src/core/policy.js";
import { evaluate } from "../../../src/eval/evaluate.js";
import { buildStudyReport } from "../../../src/report/study-build.js";
import { openStore } from "../../../src/store/open.js";
import { completedEpisodeCount } from "../../../src/store/episodes.js";
import { serveEnv, type EnvServing } from "../../../src/serve/openenv/serve-env.js";
import { startFakeServer, type FakeServer } from "./fake-server.js";
import { connect } from "../../serve/openenv/socket.js";
import { cli } from "../../cli/helpers.js";

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});
const fake = async (...args: Parameters<typeof startFakeServer>): Promise<FakeServer> => {
  const server = await startFakeServer(...args);
  closing.push(() => server.close());
  return server;
};
const folder = () => mkdtempSync(join(tmpdir(), "budgetrl-openenv-"));

describe("openenv: a generic OpenEnv server", () => {
  it("plays its finite actions with --policy random, success when done with a reward > 0", async () => {
    const server = await fake();
    const result = await evaluate({
      env: `openenv:${server.url}`,
      policy: "random",
      tasks: 3,
      samples: 4,
      budgets: ["3", "40"],
      bootstrap: 0,
    });
    expect(result.errors).toBe(0);
    const at = (label: string) => result.episodes.filter((episode) => episode.budget.label === label);
    expect(at("3").every((episode) => !episode.success)).toBe(true);
    expect(at("40").some((episode) => episode.success)).toBe(true);
    const parsed = result.episodes.flatMap((episode) => episode.turns.map((turn) => turn.parsedAction));
    expect(new Set(parsed)).toEqual(
      new Set(['{"action":"UP"}', '{"action":"DOWN"}', '{"action":"LEFT"}', '{"action":"RIGHT"}']),
    );
    expect(server.sessions()).toBe(0);
  });

  it("counts a reply that is no action as an invalid turn, which the server never sees", async () => {
    const server = await fake();
    const replies = ["go right", '{"action": "NORTH"}', '{"action": "RIGHT"}'];
    const policy = policyFromFunction("script", (_conversation, context) => replies[context.turn - 1] ?? "x");
    const result = await evaluate({ env: `openenv:${server.url}`, policy, tasks: 1, samples: 1, budgets: ["3"] });
    const turns = result.episodes[0]!.turns;
    expect(turns.map((turn) => turn.invalid)).toEqual([true, true, false]);
    expect(result.episodes[0]!.preamble[0]!.content).toMatch(/JSON Schema/);
    expect(result.episodes[0]!.stopReason).toBe("max_turns");
  });

  it.each(["garbage-reply", "drop-on-step", "silent-on-step"] as const)(
    "makes an episode an error when the server answers with %s",
    async (fault) => {
      const server = await fake(fault);
      const result = await evaluate({
        env: `openenv:${server.url}`,
        envOptions: { timeout: "0.2" },
        policy: "random",
        tasks: 2,
        samples: 1,
        budgets: ["5"],
      });
      expect(result.errors).toBe(2);
      expect(
        result.episodes.every((episode) => episode.stopReason === "error" && episode.error?.startsWith("env:")),
      ).toBe(true);
    },
  );

  it("is reported, and shown, with a note that its oracle analyses have no oracle, and its Pass@(K,T)", async () => {
    const server = await fake();
    const db = join(folder(), "runs.db");
    await evaluate({
      env: `openenv:${server.url}`,
      policy: "random",
      tasks: 2,
      samples: 2,
      budgets: ["5"],
      db,
      run: "r",
    });
    const store = await openStore(db, { readonly: true });
    const report = await buildStudyReport(store, { selection: { runs: ["r"] }, bootstrap: 0 }).finally(() =>
      store.close(),
    );
    const note = `no oracle for this env (openenv:${server.url}): step quality, recovery, the horizon by optimal length and the statistics' ranges need one, so they are left out; Pass@(K,T) and invalid replies are shown`;
    expect(report.notes).toContain(note);
    // `show --analyses` says the same sentence where the analyses would be, and as its JSON's note.
    const shown = await cli("show", "r", "--db", db, "--analyses");
    expect(shown.stdout.trimEnd().endsWith(`\n${note}`)).toBe(true);
    const json = JSON.parse((await cli("show", "r", "--db", db, "--analyses", "--json")).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ stepQuality: [], horizon: [], note });
    expect(report.budgetTables[0]?.rows[0]?.pass1[0]?.tasks).toBe(2);
  });

  it("says so, before the run, when --policy random has no finite action to draw from", async () => {
    const server = await fake("none", "text");
    const db = join(folder(), "runs.db");
    const run = evaluate({ env: `openenv:${server.url}`, policy: "random", tasks: 1, db });
    await expect(run).rejects.toThrow(
      /^policy: the OpenEnv server's action schema has no finite actions \(no enum, const or boolean field\) and it sends no valid actions: the random policy has nothing to draw from/,
    );
    expect(existsSync(db)).toBe(false);
  });

  it("refuses a URL that serves no OpenEnv env, in one line, before the run", async () => {
    const http = createServer((_request, response) => response.writeHead(404).end());
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closing.push(() => new Promise((resolve) => http.close(() => resolve())));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const db = join(folder(), "runs.db");
    const run = evaluate({ env: `openenv:${url}`, policy: "random", tasks: 1, db });
    await expect(run).rejects.toThrow(DataError);
    await expect(run).rejects.toThrow(`${url}/health is not an OpenEnv server: GET answered HTTP 404`);
  });

  it("names why a URL cannot be reached (the socket's error under fetch's), before the run", async () => {
    const http = createServer();
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const port = (http.address() as AddressInfo).port;
    await new Promise<void>((resolve) => http.close(() => resolve()));
    const run = evaluate({ env: `openenv:http://127.0.0.1:${port}`, policy: "random", tasks: 1 });
    await expect(run).rejects.toThrow(
      `cannot reach the OpenEnv server at http://127.0.0.1:${port}/health: fetch failed (connect ECONNREFUSED 127.0.0.1:${port})`,
    );
  });
});

describe("openenv: budgetrl env-server's faults", () => {
  it("makes the episodes a killed server dropped errors, and --resume plays them again", async () => {
    const db = join(folder(), "client.db");
    let server: EnvServing = await serveEnv({ env: "hanoi", envOptions: { randomStart: "true" }, port: 0 });
    const port = server.port;
    let killed = false;
    const policy = policyFromFunction("killer", async (_conversation, context) => {
      if (!killed && context.turn === 2) {
        killed = true;
        await server.close();
      }
      return "A->C";
    });
    const env = `openenv:${server.url}`;
    const first = await evaluate({ env, policy, tasks: 3, samples: 2, budgets: ["4"], db, run: "r" });
    expect(first.errors).toBe(6);
    server = await serveEnv({ env: "hanoi", envOptions: { randomStart: "true" }, port });
    closing.push(() => server.close());
    const resumed = await evaluate({
      env,
      policy: policyFromFunction("killer", () => "A->C"),
      db,
      run: "r",
      resume: true,
    });
    expect(resumed.errors).toBe(0);
    expect(resumed.complete).toBe(true);
  });

  it("waits for a server at capacity up to the timeout, then makes the episode an error that --resume plays again", async () => {
    const db = join(folder(), "client.db");
    const server = await serveEnv({ env: "vault", port: 0, maxSessions: 1 });
    closing.push(() => server.close());
    const holder = await connect(server.url);
    await holder.send({ type: "reset", data: {} });
    const env = `openenv:${server.url}`;
    // A timeout long enough that a loaded machine's replies make it, short enough that the full server's wait ends.
    const options = { env, envOptions: { task: "task", timeout: "2" }, policy: "random", tasks: 2, samples: 1 };
    const crowded = await evaluate({ ...options, budgets: ["3"], db, run: "r", concurrency: 2 });
    expect(crowded.errors).toBe(2);
    expect(crowded.firstError).toMatch(/CAPACITY_REACHED/);
    holder.close();
    await holder.closed;
    const resumed = await evaluate({ ...options, db, run: "r", resume: true });
    expect(resumed.complete).toBe(true);
  });

  it("shares a full server between more episodes than it has sessions, asking again while it is full", async () => {
    const server = await serveEnv({ env: "vault", port: 0, maxSessions: 1 });
    closing.push(() => server.close());
    const result = await evaluate({
      env: `openenv:${server.url}`,
      envOptions: { task: "task" },
      policy: "random",
      tasks: 4,
      samples: 2,
      budgets: ["3"],
      concurrency: 8,
    });
    expect(result.errors).toBe(0);
    expect(server.stats().refused).toBeGreaterThan(0);
  });

  it("loses no stored episode when it is killed: every episode a client saw end is in its store", async () => {
    const serverDb = join(folder(), "server.db");
    const server = await serveEnv({ env: "vault", port: 0, db: serverDb, run: "trainer" });
    let ended = 0;
    const policy = policyFromFunction("counter", async (_conversation, context) => {
      if (context.turn === 1 && context.sample === 1 && context.taskId === "task-3") await server.close();
      return "<answer>0</answer>"; // a wrong code ends the episode on the server's side (a budget ends it on ours)
    });
    const result = await evaluate({
      env: `openenv:${server.url}`,
      envOptions: { task: "task" },
      policy,
      tasks: 6,
      samples: 2,
      budgets: ["20"],
    });
    ended = result.episodes.filter((episode) => episode.stopReason !== "error").length;
    expect(ended).toBeGreaterThan(0);
    const store = await openStore(serverDb, { mode: "read" });
    try {
      expect(await completedEpisodeCount(store, "trainer")).toBe(ended);
    } finally {
      await store.close();
    }
  });
});
