// End to end: `budgetrl serve --context-rule tiny` on a free loopback port with a small trained checkpoint (a child
// process), and `budgetrl eval --policy openai:...` against it over real HTTP. With the tiny policy's seeds (seedScheme=tiny),
// the served run equals the in-process `--policy tiny:CKPT` run of the same seed: the same replies, tokens and
// Pass@(K,T) table, log-probs equal to the in-process ones, and the stored log-probs equal to the checkpoint's own
// scoring of the stored prompt and reply tokens. Ctrl-C stops the server with exit code 130. A server listening beyond
// loopback without an API key warns at start; with the key from the environment it refuses a request without it.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Episode } from "../../src/core/episode.js";
import { loadCheckpoint } from "../../src/nn/checkpoint.js";
import { freshCheckpoint, sokobanCheckpoint } from "../serve/helpers.js";
import { allText, cli, exitOf, spawnCli, textMatching } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-serve-cli-"));
let ckpt: string;
let child: ReturnType<typeof spawnCli>;
let url: string;
let stderr: Promise<string>;
let exit: ReturnType<typeof exitOf>;

/** The table a run prints (its header names the run and policy, which differ). */
const tableOf = (stdout: string): string => stdout.slice(stdout.indexOf("K \\ T"), stdout.indexOf("stored in"));

function exported(run: string, db: string): Promise<Episode[]> {
  const out = join(dir, `${run}.jsonl`);
  return cli("export", run, "--db", db, "--out", out).then(() =>
    readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Episode),
  );
}

beforeAll(async () => {
  ckpt = await sokobanCheckpoint(join(dir, "ckpt"));
  child = spawnCli(["serve", "--ckpt", ckpt, "--port", "0", "--name", "sokoban-tiny", "--context-rule", "tiny"]);
  exit = exitOf(child);
  stderr = allText(child.stderr!);
  url = /on (http:\/\/127\.0\.0\.1:\d+\/v1) /.exec(await textMatching(child.stdout!, /Ctrl-C stops\n/))![1]!;
}, 120_000);

afterAll(() => {
  if (child.exitCode === null) child.kill("SIGKILL");
});

describe("budgetrl serve, end to end", () => {
  it("serves an eval that equals the in-process tiny policy's, its stored log-probs the checkpoint's own scoring", async () => {
    const common = [
      "eval",
      "--env",
      "sokoban",
      "--tasks",
      "8",
      "--samples",
      "2",
      "--k",
      "1,2",
      "--budget",
      "50%,100%",
      "--seed",
      "3",
      "--concurrency",
      "8",
      "--no-progress",
    ];
    const local = await cli(...common, "--policy", `tiny:${ckpt}`, "--db", join(dir, "local.db"), "--run", "local");
    expect(local.code).toBe(0);
    const served = await cli(
      ...common,
      "--policy",
      "openai:sokoban-tiny",
      "--base-url",
      url,
      "--no-cache",
      "--db",
      join(dir, "served.db"),
      "--run",
      "served",
      "--policy-opt",
      "seedScheme=tiny",
      "--policy-opt",
      "logprobs=true",
      "--policy-opt",
      "tokenIds=true",
    );
    expect(served.stderr).not.toMatch(/error/i);
    expect(served.code).toBe(0);
    expect(tableOf(served.stdout)).toBe(tableOf(local.stdout));
    expect(tableOf(local.stdout)).toMatch(/^K \\ T/);

    const localEpisodes = await exported("local", join(dir, "local.db"));
    const servedEpisodes = await exported("served", join(dir, "served.db"));
    expect(servedEpisodes).toHaveLength(32);
    const model = await loadCheckpoint(ckpt);
    let turns = 0;
    let worst = 0;
    for (const [e, episode] of servedEpisodes.entries()) {
      const mine = localEpisodes[e]!;
      expect([episode.taskId, episode.sample, episode.budget.label, episode.stopReason, episode.return]).toEqual([
        mine.taskId,
        mine.sample,
        mine.budget.label,
        mine.stopReason,
        mine.return,
      ]);
      expect(episode.turns.map((turn) => [turn.action.content, turn.observation, turn.tokens])).toEqual(
        mine.turns.map((turn) => [turn.action.content, turn.observation, turn.tokens]),
      );
      for (const [t, turn] of episode.turns.entries()) {
        turns++;
        const logprobs = turn.logprobs!;
        mine.turns[t]!.logprobs!.forEach((logprob, i) => expect(Math.abs(logprob - logprobs[i]!)).toBeLessThan(1e-5));
        const prompt = turn.sampling!.promptTokens!;
        const [scored] = await model.logprobs([[...prompt, ...turn.tokens!]]);
        logprobs.forEach(
          (logprob, i) => (worst = Math.max(worst, Math.abs(logprob - scored![prompt.length - 1 + i]!))),
        );
        expect(turn.sampling).toMatchObject({ temperature: 1, topP: 1, model: "sokoban-tiny" });
      }
    }
    expect(worst).toBeLessThan(1e-4);
    // Enough play to mean something: many turns, moves and garbage among the replies, and replies whose bytes were
    // not all valid UTF-8 (the server kept their tokens to prompt as the in-process policy does).
    const all = servedEpisodes.flatMap((episode) => episode.turns);
    expect(turns).toBeGreaterThan(150);
    expect(all.filter((turn) => !turn.invalid).length).toBeGreaterThan(50);
    expect(all.filter((turn) => turn.invalid).length).toBeGreaterThan(10);
    expect(all.some((turn) => turn.action.content.includes("\uFFFD"))).toBe(true);
    model.dispose();
  }, 120_000);

  it("stops on Ctrl-C with exit code 130, saying how many requests it answered", async () => {
    child.kill("SIGINT");
    expect((await exit).code).toBe(130);
    expect(await stderr).toMatch(/budgetrl serve: stopped after \d+ requests\n/);
  }, 30_000);
});

describe("budgetrl serve beyond loopback", () => {
  const start = async (env: NodeJS.ProcessEnv) => {
    const ckpt = await freshCheckpoint(join(dir, "fresh"), { maxNewTokens: 4, history: "segments" });
    const server = spawnCli(["serve", "--ckpt", ckpt, "--host", "0.0.0.0", "--port", "0", "--name", "open"], { env });
    const stderr = allText(server.stderr!);
    const started = await textMatching(server.stdout!, /Ctrl-C stops\n/);
    const port = /:(\d+)\/v1 /.exec(started)![1]!;
    return { server, stderr, started, url: `http://127.0.0.1:${port}/v1`, exit: exitOf(server) };
  };

  it("warns at start when it has no API key", async () => {
    const { BUDGETRL_API_KEY: _ours, VLLM_API_KEY: _vllm, ...env } = process.env;
    const { server, stderr, exit } = await start(env);
    server.kill("SIGINT");
    expect((await exit).code).toBe(130);
    expect(await stderr).toMatch(/warning: listening on 0\.0\.0\.0, beyond this machine, without an API key/);
  }, 60_000);

  it("takes the key from VLLM_API_KEY: no warning, 401 without the key, 200 with it", async () => {
    const { BUDGETRL_API_KEY: _ours, ...env } = process.env;
    const { server, stderr, started, url, exit } = await start({ ...env, VLLM_API_KEY: "from-env" });
    expect(started).toMatch(/API key required/);
    try {
      expect((await fetch(`${url}/models`)).status).toBe(401);
      expect((await fetch(`${url}/models`, { headers: { authorization: "Bearer from-env" } })).status).toBe(200);
    } finally {
      server.kill("SIGINT");
    }
    expect((await exit).code).toBe(130);
    expect(await stderr).not.toMatch(/warning/);
  }, 60_000);
});
