// An evaluation against a loopback server that misbehaves in a seeded pattern: 429s with Retry-After, 500s,
// responses slower than the request timeout, dropped connections, unreadable bodies, and, among its answers,
// tool calls with invalid JSON arguments, unknown tool names and empty replies (the model's garbage). Transient
// faults hit a request's first two attempts only (so with 3 retries it gets through); a few "doomed" requests fail
// on every attempt, and a few get a 200 of the wrong shape (the server's garbage), until the server recovers,
// before the resume. The eval must complete, store every episode exactly once, keep retries
// within their bound, count the requests that never succeeded as error episodes, and finish them on resume.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hash53 } from "../../../src/core/hash.js";
import { evaluate } from "../../../src/eval/evaluate.js";
import { openaiPolicyFromSpec } from "../../../src/policies/openai/create.js";
import { openSqlite } from "../../helpers/sqlite.js";
import { BUNDLED_BFCL_DATA_DIR as BFCL_DATA_DIR } from "../../../src/envs/bfcl/load/bundled-data.js";
import {
  completion,
  MALFORMED_REPLIES,
  startFakeServer,
  type FakeReply,
  type FakeRequest,
  type Responder,
} from "./fake-server.js";
import { groundTruthResponder } from "./ground-truth-server.js";

const RUN_SEED = 3;
const SAMPLES = 2;
const RETRIES = 3;

/** A request's identity across its retries: the same body is sent again. */
function requestKey(request: FakeRequest): string {
  return `${String(request.body["seed"])}:${Array.isArray(request.body["messages"]) ? request.body["messages"].length : 0}`;
}

/** A number in [0, 1) from labels: the seeded pattern. */
function draw(...labels: readonly (string | number)[]): number {
  return hash53(labels.join("\u0000"), 20261203) / 2 ** 53;
}

/** Spoil a good answer as a model might: invalid JSON arguments, an unknown tool name, or an empty reply. */
function garble(reply: FakeReply, key: string): FakeReply {
  if (reply.kind !== "json") return reply;
  const roll = draw("garble", key);
  const body = reply.body as {
    choices: { message: { tool_calls?: { function: { name: string; arguments: string } }[] } }[];
  };
  const calls = body.choices[0]?.message.tool_calls;
  if (roll < 0.06) return { kind: "json", body: completion([{ content: "" }]) };
  if (calls === undefined || calls.length === 0) return reply;
  const spoiled = JSON.parse(JSON.stringify(reply.body)) as typeof body;
  const call = spoiled.choices[0]?.message.tool_calls?.[0];
  if (call === undefined) return reply;
  if (roll < 0.14) call.function.arguments = call.function.arguments.slice(0, -1);
  else if (roll < 0.2) call.function.name = "no_such_function";
  else return reply;
  return { kind: "json", body: spoiled };
}

interface FaultLog {
  attempts: Map<string, number>;
  rateLimited: number;
  malformed: number;
  healthy: boolean;
}

function faultyResponder(answer: Responder, log: FaultLog): Responder {
  return (request) => {
    const key = requestKey(request);
    const attempt = log.attempts.get(key) ?? 0;
    log.attempts.set(key, attempt + 1);
    if (!log.healthy && draw("doomed", key) < 0.04)
      return { kind: "json", status: 503, body: { error: { message: "overloaded" } } };
    const broken = draw("malformed", key);
    if (!log.healthy && broken < 0.03) {
      log.malformed++;
      return (
        MALFORMED_REPLIES[Math.floor((broken / 0.03) * MALFORMED_REPLIES.length)]?.reply ?? { kind: "json", body: {} }
      );
    }
    const roll = attempt < 2 ? draw("fault", key, attempt) : 1;
    if (roll < 0.1) {
      log.rateLimited++;
      return {
        kind: "json",
        status: 429,
        body: { error: { message: "rate limited" } },
        headers: { "retry-after": "1" },
      };
    }
    if (roll < 0.18) return { kind: "json", status: 500, body: { error: { message: "internal" } } };
    if (roll < 0.2) return { kind: "hang" };
    if (roll < 0.24) return { kind: "drop" };
    if (roll < 0.27) return { kind: "raw", text: "<html>502 Bad Gateway</html>" };
    return Promise.resolve(answer(request)).then((reply) => garble(reply, key));
  };
}

describe("the openai policy under injected faults", () => {
  it("completes the eval with every episode stored once, bounded retries, and error episodes finished on resume", async () => {
    const log: FaultLog = { attempts: new Map(), rateLimited: 0, malformed: 0, healthy: false };
    const server = await startFakeServer(
      faultyResponder(groundTruthResponder(BFCL_DATA_DIR, "base,miss_func", RUN_SEED, SAMPLES), log),
    );
    const dir = mkdtempSync(join(tmpdir(), "budgetrl-faults-"));
    const db = join(dir, "faults.db");
    const waits: number[] = [];
    const policy = () =>
      openaiPolicyFromSpec("ground-truth", {
        client: {
          baseUrl: server.url,
          concurrency: 16,
          timeoutMs: 800,
          retries: RETRIES,
          backoffMs: 1,
          maxBackoffMs: 30_000,
          cacheDir: join(dir, "cache"),
        },
        runSeed: RUN_SEED,
        transport: { sleep: async (ms) => void waits.push(ms) },
      });
    const options = {
      env: "bfcl",
      envOptions: { dataDir: BFCL_DATA_DIR, categories: "base,miss_func" },
      tasks: 60,
      samples: SAMPLES,
      budgets: ["100%"],
      budgetScope: "user-turn" as const,
      budgetMode: "hidden" as const,
      bootstrap: 0,
      seed: RUN_SEED,
      concurrency: 16,
      db,
      run: "faults",
    };
    try {
      const first = await evaluate({ ...options, policy: policy() });
      const total = 60 * SAMPLES;
      expect(first.total).toBe(total);
      expect(first.errors).toBeGreaterThan(0);
      expect(first.done + first.errors).toBe(total);
      // Retries stay bounded: no request was sent more than 1 + RETRIES times.
      expect(Math.max(...log.attempts.values())).toBe(RETRIES + 1);
      // Every 429 that was retried waited its Retry-After (1 s, recorded, not slept).
      expect(waits.filter((ms) => ms === 1000).length).toBeGreaterThan(0);
      expect(waits.filter((ms) => ms === 1000).length).toBeLessThanOrEqual(log.rateLimited);
      const store = openSqlite(db);
      const count = (sql: string): number => (store.db.prepare(sql).get() as { n: number }).n;
      expect(count("SELECT COUNT(*) AS n FROM episodes WHERE run_id = 'faults'")).toBe(total);
      expect(count("SELECT COUNT(*) AS n FROM episodes WHERE run_id = 'faults' AND stop_reason = 'error'")).toBe(
        first.errors,
      );
      // Every 200 of the wrong shape ended its episode as an error naming it (asked once: never retried).
      expect(log.malformed).toBeGreaterThan(0);
      expect(
        count(
          "SELECT COUNT(*) AS n FROM episodes WHERE run_id = 'faults' AND stop_reason = 'error' AND error LIKE 'the server at % answered 200 %'",
        ),
      ).toBe(log.malformed);
      const finished = store.db
        .prepare(
          "SELECT task_index, sample, success, turns_used FROM episodes WHERE stop_reason != 'error' ORDER BY task_index, sample",
        )
        .all();
      // Garbage from the model cost turns but never crashed: some turns were invalid, and still some entries passed.
      expect(count("SELECT COUNT(*) AS n FROM turns WHERE invalid = 1")).toBeGreaterThan(0);
      expect(count("SELECT COUNT(*) AS n FROM episodes WHERE success = 1")).toBeGreaterThan(0);
      store.close();

      log.healthy = true;
      const resumed = await evaluate({ ...options, policy: policy(), resume: true });
      expect(resumed.errors).toBe(0);
      expect(resumed.done).toBe(total);
      const after = openSqlite(db);
      expect(
        (after.db.prepare("SELECT COUNT(*) AS n FROM episodes WHERE run_id = 'faults'").get() as { n: number }).n,
      ).toBe(total);
      const kept = after.db
        .prepare(
          `SELECT task_index, sample, success, turns_used FROM episodes WHERE (task_index, sample) IN (${finished.map(() => "(?, ?)").join(",")}) ORDER BY task_index, sample`,
        )
        .all(
          ...finished.flatMap((row) => [
            (row as { task_index: number }).task_index,
            (row as { sample: number }).sample,
          ]),
        );
      // The episodes finished in the first pass were not run again.
      expect(kept).toEqual(finished);
      after.close();
    } finally {
      await server.close();
    }
  }, 120_000);
});
