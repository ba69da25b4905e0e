// What the openai policy needs from an OpenAI-compatible server, as one contract suite that any server can be
// run through: the loopback reference model (server-contract.test.ts) and `budgetrl serve` over a checkpoint
// (test/serve/server-contract.test.ts):
//
//   openaiServerContract("budgetrl serve", async () => { const s = await serveCheckpoint({ ckpt, port: 0 }); return { url: s.url, model: s.name, close: () => s.close() } })
//
// POST {url}/chat/completions, non-streaming, with the fields the policy sends (model, messages, tools, temperature,
// top_p, max_tokens, seed, n, logprobs, top_logprobs, return_token_ids, return_tokens_as_token_ids). The server
// must: answer a chat.completion with choices[i] = { index, message: { content | tool_calls }, finish_reason };
// give the same answer to the same request with the same seed; honour n; with logprobs + return_token_ids give
// choices[i].token_ids (or "token_id:N" token texts) aligned with logprobs.content[j].logprob <= 0, and
// prompt_token_ids; answer a prompt longer than its context with a 400 whose message says so (e.g. "maximum
// context length"); and serve a whole evaluation through the policy, token data stored.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../../src/eval/evaluate.js";
import { isContextLengthText } from "../../../src/policies/openai/faults.js";

export interface ContractServer {
  /** Base URL up to /v1. */
  readonly url: string;
  /** The model name the server answers to. */
  readonly model: string;
  close(): Promise<void>;
}

interface Choice {
  readonly index: number;
  readonly message: {
    readonly content: string | null;
    readonly tool_calls?: readonly {
      readonly id: string;
      readonly function: { readonly name: string; readonly arguments: string };
    }[];
  };
  readonly finish_reason: string;
  readonly token_ids?: readonly number[];
  readonly logprobs?: { readonly content: readonly { readonly token: string; readonly logprob: number }[] } | null;
}

interface Completion {
  readonly choices: readonly Choice[];
  readonly prompt_token_ids?: readonly number[];
}

async function post(server: ContractServer, body: Record<string, unknown>): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer EMPTY" },
    body: JSON.stringify({ model: server.model, ...body }),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

const grid = [
  { role: "system", content: "Answer with one move: Up, Down, Left or Right." },
  { role: "user", content: "#####\n#@ $.#\n#####\nTurn 1 of 4: 4 turns left." },
];

export function openaiServerContract(name: string, start: () => Promise<ContractServer>): void {
  describe(`OpenAI-compatible server contract: ${name}`, () => {
    let server: ContractServer;
    beforeAll(async () => {
      server = await start();
    });
    afterAll(async () => {
      await server.close();
    });

    it("answers a chat completion, the same one for the same seed", async () => {
      const first = await post(server, { messages: grid, temperature: 1, seed: 42, max_tokens: 16 });
      expect(first.status).toBe(200);
      const completion = first.json as Completion;
      expect(completion.choices).toHaveLength(1);
      expect(typeof completion.choices[0]?.message.content).toBe("string");
      expect(typeof completion.choices[0]?.finish_reason).toBe("string");
      const again = await post(server, { messages: grid, temperature: 1, seed: 42, max_tokens: 16 });
      expect((again.json as Completion).choices[0]?.message).toEqual(completion.choices[0]?.message);
    });

    it("gives n choices, indexed", async () => {
      const { json } = await post(server, { messages: grid, temperature: 1, seed: 7, n: 3, max_tokens: 16 });
      expect((json as Completion).choices.map((choice) => choice.index)).toEqual([0, 1, 2]);
    });

    it("returns token ids aligned with log-probs, and the prompt's token ids", async () => {
      const { json } = await post(server, {
        messages: grid,
        temperature: 1,
        seed: 3,
        max_tokens: 16,
        logprobs: true,
        return_token_ids: true,
        return_tokens_as_token_ids: true,
      });
      const completion = json as Completion;
      const choice = completion.choices[0] as Choice;
      const entries = choice.logprobs?.content ?? [];
      const ids = choice.token_ids ?? entries.map((entry) => Number(/^token_id:(\d+)$/.exec(entry.token)?.[1]));
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => Number.isInteger(id) && id >= 0)).toBe(true);
      expect(entries).toHaveLength(ids.length);
      expect(entries.every((entry) => entry.logprob <= 0 && Number.isFinite(entry.logprob))).toBe(true);
      expect(completion.prompt_token_ids?.length ?? 0).toBeGreaterThan(0);
    });

    it("answers requests with tools with content or well-formed tool calls", async () => {
      const tools = [
        {
          type: "function",
          function: {
            name: "move",
            description: "move the player",
            parameters: { type: "object", properties: { direction: { type: "string" } }, required: ["direction"] },
          },
        },
      ];
      const { status, json } = await post(server, { messages: grid, tools, temperature: 1, seed: 5, max_tokens: 32 });
      expect(status).toBe(200);
      const message = (json as Completion).choices[0]?.message;
      for (const call of message?.tool_calls ?? []) {
        expect(typeof call.id).toBe("string");
        expect(typeof call.function.name).toBe("string");
        expect(typeof call.function.arguments).toBe("string");
      }
      expect(message?.tool_calls !== undefined || typeof message?.content === "string").toBe(true);
    });

    it("refuses a prompt longer than its context with a 400 that says so", async () => {
      const long = "budget ".repeat(200_000);
      const { status, json } = await post(server, { messages: [{ role: "user", content: long }], max_tokens: 4 });
      expect(status).toBe(400);
      expect(isContextLengthText(JSON.stringify(json))).toBe(true);
    });

    it("serves an evaluation through the openai policy, with token data on every turn", async () => {
      const result = await evaluate({
        env: "sokoban",
        policy: `openai:${server.model}`,
        policyOptions: { logprobs: true, tokenIds: true, maxTokens: 16, n: 2 },
        policyClient: { baseUrl: server.url, cacheDir: mkdtempSync(join(tmpdir(), "budgetrl-contract-")) },
        tasks: 2,
        samples: 2,
        budgets: ["3"],
        bootstrap: 0,
        concurrency: 4,
      });
      expect(result.errors).toBe(0);
      expect(result.done).toBe(4);
      const turns = result.episodes.flatMap((episode) => episode.turns);
      expect(
        turns.every(
          (turn) =>
            turn.tokens !== undefined &&
            turn.logprobs?.length === turn.tokens.length &&
            turn.sampling?.promptTokens !== undefined,
        ),
      ).toBe(true);
    });
  });
}
