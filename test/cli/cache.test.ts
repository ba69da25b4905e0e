// The openai policy from the command line: policy options stored with the run, client options not; the API key
// from the environment, never printed or stored; the response cache, `--no-cache`, `budgetrl cache info/clear`.
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "../helpers/sqlite.js";
import { completion, startFakeServer, type FakeServer } from "../policies/openai/fake-server.js";
import { cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-openai-"));
const cacheDir = join(dir, "cache");
const SECRET = "sk-budgetrl-test-never-stored-0123456789";
let server: FakeServer;
/** Requests of one uncached run: one per turn of its 6 episodes (sokoban, budget 4: 24 turns). */
const PER_RUN = 24;

beforeAll(async () => {
  server = await startFakeServer((request) => ({
    kind: "json",
    body: completion([{ content: `<answer>${Number(request.body["seed"]) % 2 === 0 ? "Up" : "Left"}</answer>` }]),
  }));
  process.env["BUDGETRL_TEST_API_KEY"] = SECRET;
});
afterAll(async () => {
  delete process.env["BUDGETRL_TEST_API_KEY"];
  await server.close();
});

const evalArgs = (db: string, run: string, ...extra: string[]): string[] => [
  "eval",
  "--env",
  "sokoban",
  "--policy",
  "openai:fake",
  "--base-url",
  server.url,
  "--api-key-env",
  "BUDGETRL_TEST_API_KEY",
  "--policy-opt",
  "temperature=0.5",
  "--policy-opt",
  'extraBody={"top_k": 20}',
  "--cache",
  cacheDir,
  "--tasks",
  "3",
  "--samples",
  "2",
  "--budget",
  "4",
  "--bootstrap",
  "0",
  "--db",
  db,
  "--run",
  run,
  "--no-progress",
  ...extra,
];

/** Every byte of every file under a folder, as text. */
function folderText(folder: string): string {
  return readdirSync(folder)
    .map((name) => join(folder, name))
    .map((path) => (statSync(path).isDirectory() ? folderText(path) : readFileSync(path).toString("latin1")))
    .join("\n");
}

describe("budgetrl eval --policy openai:MODEL", () => {
  it("stores the sampling options with the run but not the client options, and never the API key", async () => {
    const db = join(dir, "runs.db");
    const result = await cli(...evalArgs(db, "first", "--json"));
    // Only the start line on stderr.
    expect(result.stderr).toMatch(/^run first: 6 episodes, stored in .* as they finish; Ctrl-C stops\n$/);
    expect(result.code).toBe(0);
    const config = (JSON.parse(result.stdout) as { config: Record<string, unknown> }).config;
    expect(config["policy"]).toBe("openai:fake");
    expect(config["policyOptions"]).toEqual({
      temperature: 0.5,
      topP: 1,
      seed: 0,
      n: 1,
      logprobs: false,
      topLogprobs: 0,
      tokenIds: false,
      extraBody: { top_k: 20 },
    });
    expect(JSON.stringify(config)).not.toContain(server.url);
    expect(server.requests).toHaveLength(PER_RUN);
    expect(server.requests[0]?.headers["authorization"]).toBe(`Bearer ${SECRET}`);
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0.5, top_k: 20, model: "fake" });
    const store = openSqlite(db);
    store.db.pragma("wal_checkpoint(TRUNCATE)");
    store.close();
    const everything = [result.stdout, result.stderr, folderText(dir)];
    expect(everything[2]).toContain("<answer>"); // the folder text does hold the runs and the cache
    for (const text of everything) expect(text).not.toContain(SECRET);
  });

  it("answers a rerun from the cache, asks again with --no-cache or after `cache clear`", async () => {
    const db = join(dir, "reruns.db");
    const before = server.requests.length;
    const cached = await cli(...evalArgs(db, "cached", "--json"));
    expect(cached.code).toBe(0);
    expect(server.requests.length).toBe(before);
    expect((await cli(...evalArgs(db, "uncached", "--json", "--no-cache"))).code).toBe(0);
    expect(server.requests.length).toBe(before + PER_RUN);
    const info = await cli("cache", "info", "--cache", cacheDir);
    expect(info.stdout).toBe(`${cacheDir}\nfake\t${PER_RUN}\n`);
    const cleared = await cli("cache", "clear", "--cache", cacheDir);
    expect(cleared.stdout).toBe(`removed ${PER_RUN} cached responses from ${cacheDir}\n`);
    expect((await cli(...evalArgs(db, "after-clear", "--json"))).code).toBe(0);
    expect(server.requests.length).toBe(before + 2 * PER_RUN);
    // Same answers every time: the per-call seeds are the same, and the server answers by seed.
    const tables = await Promise.all(
      ["cached", "uncached", "after-clear"].map(async (run) =>
        (await cli("show", run, "--db", db, "--json")).stdout.replace(/"run": "[^"]+"/, ""),
      ),
    );
    expect(new Set(tables).size).toBe(1);
  });

  it("resumes with the stored options and new client options; refuses changed sampling options", async () => {
    const db = join(dir, "resume.db");
    expect((await cli(...evalArgs(db, "resumable"))).code).toBe(0);
    const resumed = await cli(
      "eval",
      "--resume",
      "--run",
      "resumable",
      "--db",
      db,
      "--base-url",
      server.url,
      "--cache",
      cacheDir,
      "--no-progress",
    );
    expect(resumed.code).toBe(0);
    const changed = await cli(
      "eval",
      "--resume",
      "--run",
      "resumable",
      "--db",
      db,
      "--policy-opt",
      "temperature=0.9",
      "--no-progress",
    );
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/--policy-opt: run resumable was made with other policy options/);
  });

  it("fails before any work on bad policy and client options, naming them", async () => {
    const db = join(dir, "bad.db");
    const cases: [string[], RegExp][] = [
      [["--policy", "openai:m", "--policy-opt", "temperature=9"], /openai.temperature: expected a number from 0 to 2/],
      [["--policy", "openai:m", "--policy-opt", "temprature=1"], /openai.temprature: unknown option/],
      [["--policy", "openai:m", "--policy-opt", "extraBody={oops"], /openai.extraBody: expected a JSON object/],
      [["--policy", "openai:m", "--base-url", "localhost"], /--base-url: expected a URL/],
      [
        ["--policy", "openai:m", "--api-key-env", "BUDGETRL_UNSET_VARIABLE"],
        /openai.apiKeyEnv: the environment variable BUDGETRL_UNSET_VARIABLE is not set/,
      ],
      [["--policy", "openai:m", "--rpm", "-1"], /--rpm: expected an integer from 0 to 10000000/],
      [["--policy", "openai"], /policy: openai needs a model name/],
      [
        ["--policy", "oracle", "--base-url", "http://127.0.0.1:1/v1"],
        /--base-url: applies to openai and tinker policies only/,
      ],
      [
        ["--policy", "oracle", "--policy-opt", "temperature=1"],
        /--policy-opt temperature: policy oracle takes no options/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const result = await cli("eval", "--db", db, "--no-progress", "--no-cache", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toMatch(pattern);
    }
    const store = openSqlite(db);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM runs").get()).toEqual({ n: 0 });
    store.close();
  });

  it("documents the openai flags in `budgetrl eval --help` and the cache commands", async () => {
    const help = (await cli("eval", "--help")).stdout;
    for (const flag of [
      "--policy-opt",
      "--base-url",
      "--api-key-env",
      "--request-concurrency",
      "--rpm",
      "--request-timeout",
      "--retries",
      "--retry-backoff",
      "--retry-max-wait",
      "--cache",
      "--no-cache",
    ])
      expect(help).toContain(`  ${flag} `);
    expect((await cli("cache", "clear", "--help")).stdout).toContain("--model");
    expect((await cli("runs", "--db", join(dir, "runs.db"))).stdout).toMatch(
      /episodes\s+success\s+errors\s+context-length\s+status/,
    );
  });
});
