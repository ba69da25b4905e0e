import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { evaluate } from "../../src/eval/evaluate.js";
import { exportRunJsonl } from "../../src/store/export.js";
import { openStore } from "../../src/store/open.js";
import { listRuns } from "../../src/store/runs.js";
import { completion, startFakeServer } from "../policies/openai/fake-server.js";
import { describeEachStore } from "../helpers/services.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-turn-tokens-"));

async function exportLines(db: string, run: string): Promise<Record<string, unknown>[]> {
  const out = join(dir, `${run}-${Math.random().toString(36).slice(2)}.jsonl`);
  const store = await openStore(db, { readonly: true });
  try {
    await exportRunJsonl(store, run, out);
  } finally {
    await store.close();
  }
  return readFileSync(out, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describeEachStore("turn token data", (backend) => {
  it("stores the sampled token ids, log-probs, prompt token ids and temperature per turn, and exports them", async () => {
    // A vLLM-like server: return_tokens_as_token_ids gives "token_id:N" texts, return_token_ids the prompt's ids.
    const server = await startFakeServer((request) => {
      const n = Array.isArray(request.body["messages"]) ? request.body["messages"].length : 0;
      const logprobs = [
        { token: `token_id:${100 + n}`, logprob: -0.125 },
        { token: "token_id:7", logprob: -1.5e-9 },
      ];
      return {
        kind: "json",
        body: completion([{ content: "<answer>Up</answer>", logprobs }], { prompt_token_ids: [1, 2, n] }),
      };
    });
    const db = await backend.fresh("tokens");
    try {
      const result = await evaluate({
        env: "sokoban",
        policy: "openai:tiny-llm",
        policyOptions: { temperature: "0.7", logprobs: "true", tokenIds: "true" },
        policyClient: { baseUrl: server.url, cache: false },
        tasks: 2,
        samples: 2,
        budgets: ["3"],
        bootstrap: 0,
        db,
        run: "tokens",
      });
      expect(result.done).toBe(4);
      const body = server.requests[0]?.body ?? {};
      expect(body).toMatchObject({
        temperature: 0.7,
        logprobs: true,
        return_token_ids: true,
        return_tokens_as_token_ids: true,
      });
      const lines = await exportLines(db, "tokens");
      expect(lines).toHaveLength(4);
      const turn = (lines[0]?.["turns"] as Record<string, unknown>[])[0];
      expect(turn).toMatchObject({
        tokens: [102, 7],
        logprobs: [-0.125, -1.5e-9],
        sampling: { temperature: 0.7, topP: 1, promptTokens: [1, 2, 2], finishReason: "stop", model: "fake-model" },
      });
      const stored = await openStore(db);
      expect(await stored.sql.rows("SELECT COUNT(*) FROM turn_tokens WHERE run_id = 'tokens'")).toEqual([[12]]);
      await stored.close();
    } finally {
      await server.close();
    }
  });

  it("reads stores made before turn_tokens existed, and stores nothing for policies without token data", async () => {
    const db = await backend.fresh("old");
    await evaluate({ env: "sokoban", policy: "oracle", tasks: 2, samples: 1, bootstrap: 0, db, run: "old" });
    const store = await openStore(db);
    expect(await store.sql.rows("SELECT COUNT(*) FROM turn_tokens")).toEqual([[0]]);
    await store.sql.run("DROP TABLE turn_tokens");
    await store.close();
    const lines = await exportLines(db, "old");
    expect(lines).toHaveLength(2);
    expect((lines[0]?.["turns"] as Record<string, unknown>[])[0]).not.toHaveProperty("tokens");
  });

  it("ends an episode whose prompt outgrows the context with stop reason context_length, counted as a failure", async () => {
    const server = await startFakeServer((request) =>
      Array.isArray(request.body["messages"]) && request.body["messages"].length > 4
        ? {
            kind: "json",
            status: 400,
            body: {
              error: { message: "This model's maximum context length is 64 tokens.", code: "context_length_exceeded" },
            },
          }
        : { kind: "json", body: completion([{ content: "Nope" }]) },
    );
    const db = await backend.fresh("context");
    try {
      const options = {
        env: "sokoban",
        policy: "openai:small",
        policyClient: { baseUrl: server.url, cache: false },
        tasks: 3,
        samples: 1,
        budgets: ["20"],
        bootstrap: 0,
        db,
        run: "context",
      };
      const result = await evaluate(options);
      expect(result.errors).toBe(0);
      expect(result.contextLength).toBe(3);
      expect(result.done).toBe(3);
      expect(result.table.cells[0]?.[0]?.value).toBe(0);
      const episode = (await exportLines(db, "context"))[0];
      expect(episode).toMatchObject({ stopReason: "context_length", success: false, turnsUsed: 2 });
      expect(String(episode?.["error"])).toMatch(/maximum context length is 64/);
      const store = await openStore(db, { readonly: true });
      expect((await listRuns(store))[0]).toMatchObject({ episodes: 3, errors: 0, contextLength: 3 });
      await store.close();
      const requests = server.requests.length;
      const resumed = await evaluate({ ...options, resume: true });
      expect(resumed.done).toBe(3);
      expect(server.requests.length).toBe(requests);
    } finally {
      await server.close();
    }
  });
});
