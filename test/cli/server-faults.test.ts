// `budgetrl eval --policy openai:...` against a server that answers 200 with bodies of the wrong shape (no
// "choices", an array, content a number, an HTML page, ...): the episodes end in policy errors naming the fault,
// never as the agent's failures; the table says how many errored, eval exits 1, nothing broken is cached, and the
// printed resume command, run as printed against the mended server, completes a table equal to an uninterrupted
// run's.
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hash53 } from "../../src/core/hash.js";
import { cacheSummary } from "../../src/policies/openai/cache.js";
import { openSqlite } from "../helpers/sqlite.js";
import { BUNDLED_BFCL_DATA_DIR } from "../../src/envs/bfcl/load/bundled-data.js";
import {
  completion,
  MALFORMED_REPLIES,
  startFakeServer,
  type FakeReply,
  type FakeRequest,
  type FakeServer,
} from "../policies/openai/fake-server.js";
import { groundTruthResponder } from "../policies/openai/ground-truth-server.js";
import { argvOf, cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-server-faults-"));
const SECRET = "sk-budgetrl-server-faults-0123456789";
const KEY_VARIABLE = "BUDGETRL_TEST_FAULTS_KEY";

/** A number in [0, 1) drawn from a request (the same on every asking). */
function draw(label: string, request: FakeRequest): number {
  return (
    hash53(`${label}:${String(request.body["seed"])}:${JSON.stringify(request.body["messages"]).length}`, 20) / 2 ** 53
  );
}

const SEED = 5;
const groundTruth = groundTruthResponder(BUNDLED_BFCL_DATA_DIR, "base", SEED, 2);

/** What the mended server answers: BFCL's ground truth, with a wrong tool name in about a third of its calls (the
 * model's mistakes, so that the table is neither all ones nor all zeros), and a closing text where a mistake led
 * off the ground truth; the same on every asking. */
function healthy(request: FakeRequest): FakeReply {
  const reply = groundTruth(request) as FakeReply;
  if (reply.kind === "json" && reply.status === 404)
    return { kind: "json", body: completion([{ content: "I cannot do more." }]) };
  if (reply.kind !== "json" || draw("mistake", request) >= 0.35) return reply;
  return {
    kind: "json",
    body: JSON.parse(JSON.stringify(reply.body).replace(/"name":"[^"]+"/, '"name":"no_such_function"')) as unknown,
  };
}

/** Whether a request gets a broken answer (a seeded pattern over requests), and which. */
function brokenFor(request: FakeRequest): FakeReply | undefined {
  const roll = draw("broken", request);
  return roll < 0.08 ? MALFORMED_REPLIES[Math.floor((roll / 0.08) * MALFORMED_REPLIES.length)]?.reply : undefined;
}

let server: FakeServer;
/** The server's answer to every request until a test sets another. */
let answer: (request: FakeRequest) => FakeReply = healthy;

beforeAll(async () => {
  server = await startFakeServer((request) => answer(request));
  process.env[KEY_VARIABLE] = SECRET;
});
afterAll(async () => {
  delete process.env[KEY_VARIABLE];
  await server.close();
});

const db = join(dir, "runs.db");
const cacheDir = join(dir, "cache");
const COMMON = ["--policy", "openai:fake", "--bootstrap", "0", "--seed", String(SEED), "--db", db, "--no-progress"];
const SOKOBAN = ["--env", "sokoban", "--budget", "4", "--tasks", "2", "--samples", "1", "--k", "1", ...COMMON];
const BFCL = [
  "--env",
  "bfcl",
  "--category",
  "base",
  "--budget",
  "100%",
  "--budget-scope",
  "user-turn",
  "--budget-mode",
  "hidden",
  "--tasks",
  "6",
  "--samples",
  "2",
  "--k",
  "1,2",
  ...COMMON,
];
const CLIENT = [
  "--base-url",
  "",
  "--api-key-env",
  KEY_VARIABLE,
  "--cache",
  cacheDir,
  "--retries",
  "2",
  "--request-timeout",
  "20000",
];
const client = (): string[] => CLIENT.map((word, index) => (index === 1 ? server.url : word));

/** A run's table as `show --json` prints it, without the run's name. */
async function shownTable(run: string): Promise<unknown> {
  const shown = await cli("show", run, "--db", db, "--json");
  expect(shown.code).toBe(0);
  const { run: _name, ...rest } = JSON.parse(shown.stdout) as { run: string };
  return rest;
}

describe("budgetrl eval against a server that answers 200 with the wrong shape", () => {
  it("ends every episode in a policy error naming the fault, exits 1, says so under the table, caches nothing", async () => {
    for (const [index, malformed] of MALFORMED_REPLIES.entries()) {
      answer = () => malformed.reply;
      const run = `broken-${index}`;
      const result = await cli("eval", ...SOKOBAN, "--run", run, ...client());
      expect(result.code, malformed.name).toBe(1);
      expect(result.stderr, malformed.name).toMatch(
        /2 episodes ended in a policy error and are not counted \(first: the server at http:\/\/127\.0\.0\.1:\d+\/v1 answered 200 /,
      );
      expect(/\(first: (.*)\); retry them with/.exec(result.stderr)?.[1], malformed.name).toMatch(malformed.message);
      expect(result.stdout, malformed.name).toContain(
        "policy errors: 2 of 2 episodes ended in a policy error and are not counted in this table",
      );
      // No zeros: no episode was scored.
      expect(result.stdout, malformed.name).not.toMatch(/0\.000/);
      const store = openSqlite(db);
      expect(
        store.db
          .prepare("SELECT stop_reason, COUNT(*) AS n FROM episodes WHERE run_id = ? GROUP BY stop_reason")
          .all(run),
        malformed.name,
      ).toEqual([{ stop_reason: "error", n: 2 }]);
      expect(store.db.prepare("SELECT COUNT(*) AS n FROM turns WHERE run_id = ?").get(run), malformed.name).toEqual({
        n: 0,
      });
      store.close();
    }
    expect(cacheSummary(cacheDir)).toEqual([]);
    const json = await cli("show", "broken-0", "--db", db, "--json");
    expect((JSON.parse(json.stdout) as { errors: number }).errors).toBe(2);
  });

  it("says a server it cannot reach in one line as the faults start, and names the cause in the summary", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = `http://127.0.0.1:${port}/v1`;
    const args = client().map((word) => (word === server.url ? unreachable : word));
    const result = await cli("eval", ...SOKOBAN, "--run", "unreachable", ...args, "--retry-backoff", "1");
    expect(result.code).toBe(1);
    const refused = `connection error: connect ECONNREFUSED 127.0.0.1:${port}`;
    expect(result.stderr.split("\n").filter((line) => line.includes("openai:"))).toEqual([
      `budgetrl eval: openai: ${unreachable}: ${refused}; retrying (a request is tried 3 times at most, up to 30 s apart)`,
    ]);
    expect(result.stderr).toContain(`(first: openai request failed after 3 attempts: ${refused}); retry them with`);
  });

  it("prints a resume command that, run as printed against the mended server, gives the uninterrupted run's table", async () => {
    answer = healthy;
    const reference = await cli("eval", ...BFCL, "--run", "reference", ...client());
    expect(reference.code, reference.stderr).toBe(0);
    expect(reference.stdout).toMatch(/0\.[1-9]\d\d/);
    answer = (request) => brokenFor(request) ?? healthy(request);
    const broken = await cli("eval", ...BFCL, "--run", "mended", ...client(), "--no-cache");
    expect(broken.code).toBe(1);
    const errors = Number(/policy errors: (\d+) of 12 episodes/.exec(broken.stdout)?.[1]);
    expect(errors).toBeGreaterThan(0);
    expect(errors).toBeLessThan(12);
    const hint = /retry them with: (budgetrl .*)\n/.exec(broken.stderr)?.[1] ?? "";
    expect(hint).toBe(
      `budgetrl eval --resume --run mended --db ${db} --base-url ${server.url} --api-key-env ${KEY_VARIABLE} --request-timeout 20000 --retries 2 --cache ${cacheDir} --no-cache`,
    );
    expect(broken.stdout + broken.stderr).not.toContain(SECRET);
    // `show` cannot know the client flags (never stored), and says which the command needs.
    const shown = await cli("show", "mended", "--db", db);
    expect(shown.stdout).toContain(`policy errors: ${errors} of 12 episodes`);
    expect(shown.stderr).toBe(
      `run mended is not complete; continue it with: budgetrl eval --resume --run mended --db ${db}, with the --base-url (and --api-key-env, if any) it ran with\n`,
    );
    // Starting it again under the same name is refused, with the command that continues it, client flags included.
    const again = await cli("eval", ...BFCL, "--run", "mended", ...client(), "--no-cache");
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`run "mended" already exists in ${db}`);
    expect(again.stderr).toContain(`continue it with: ${hint}`);
    answer = healthy;
    const resumed = await cli(...argvOf(hint));
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/^run mended: 12 episodes \(\d+ already stored\)/);
    expect(resumed.stdout).not.toContain("policy errors");
    expect(await shownTable("mended")).toEqual(await shownTable("reference"));
  });
});
