// BFCL multi-turn through the openai policy, end to end over HTTP: a loopback server that knows the ground truth
// answers each user turn with its calls as native `tool_calls`, then a closing text; every one of the 800 entries
// must pass (both checkers), which proves the tool path: func docs as JSON-schema tools, tool_calls back as the
// step's calls, results as tool messages with their tool_call_id. A rerun is answered from the cache.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../../src/eval/evaluate.js";
import { BUNDLED_BFCL_DATA_DIR as BFCL_DATA_DIR } from "../../../src/envs/bfcl/load/bundled-data.js";
import type { FakeServer } from "./fake-server.js";
import { startGroundTruthServer } from "./ground-truth-server.js";

const CATEGORIES = "base,miss_func,miss_param,long_context";
const RUN_SEED = 1;

/** The first `tasks` entries of `categories` once each, at the full per-user-turn budget (hidden), through the openai policy. */
function groundTruthEval(
  server: FakeServer,
  categories: string,
  tasks: number,
  mode: "tools" | "prompting",
  client: Record<string, unknown>,
  db?: string,
) {
  return evaluate({
    env: "bfcl",
    envOptions: { dataDir: BFCL_DATA_DIR, categories, mode },
    policy: "openai:ground-truth",
    policyClient: { baseUrl: server.url, retries: 0, ...client },
    tasks,
    samples: 1,
    budgets: ["100%"],
    budgetScope: "user-turn",
    budgetMode: "hidden",
    bootstrap: 0,
    seed: RUN_SEED,
    concurrency: 32,
    ...(db === undefined ? {} : { db }),
  });
}

describe("bfcl through the openai policy", () => {
  it("passes all 800 entries when the server answers the ground truth as tool calls, and reruns from the cache", async () => {
    const server = await startGroundTruthServer(BFCL_DATA_DIR, CATEGORIES, RUN_SEED);
    const cacheDir = mkdtempSync(join(tmpdir(), "budgetrl-bfcl-openai-"));
    const run = (db: string) =>
      groundTruthEval(server, CATEGORIES, 800, "tools", { concurrency: 32, cacheDir }, join(cacheDir, db));
    try {
      const first = await run("first.db");
      expect(first.errors).toBe(0);
      expect(first.done).toBe(800);
      expect(first.table.cells[0]?.[0]?.value).toBe(1);
      const requests = server.requests.length;
      expect(server.requests.every((request) => Array.isArray(request.body["tools"]))).toBe(true);
      const second = await run("second.db");
      expect(second.table.cells[0]?.[0]?.value).toBe(1);
      expect(server.requests.length).toBe(requests);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("passes in prompting mode too: plain chat, no tools, the calls written as text", async () => {
    const server = await startGroundTruthServer(BFCL_DATA_DIR, "base", RUN_SEED, "prompting");
    try {
      const result = await groundTruthEval(server, "base", 200, "prompting", { concurrency: 32, cache: false });
      expect(result.errors).toBe(0);
      expect(result.done).toBe(200);
      expect(result.table.cells[0]?.[0]?.value).toBe(1);
      expect(server.requests.some((request) => "tools" in request.body)).toBe(false);
      expect((server.requests[0]?.body["messages"] as { role: string }[])[0]?.role).toBe("system");
    } finally {
      await server.close();
    }
  }, 60_000);
});
