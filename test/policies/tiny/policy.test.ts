// The tiny policy: answers up to end-of-turn with tokens and log-probs, batched concurrent calls, and
// answers that do not depend on batching or scheduling.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { PolicyContext } from "../../../src/core/policy.js";
import { createRng } from "../../../src/core/rng.js";
import { createModel, type TinyModel } from "../../../src/nn/model.js";
import { encodeText, END } from "../../../src/nn/tokenizer.js";
import { createTinyPolicy } from "../../../src/policies/tiny/policy.js";

const config = { vocabSize: 260, contextLength: 64, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 };

function context(seed: number, turn: number): PolicyContext {
  return {
    seed, sample: 0, turn, rng: createRng(seed), tools: [], taskId: "t",
    privileged: { oracle: () => { throw new Error("no oracle for LM policies"); }, validActions: () => [], toMessage: (action) => ({ role: "assistant", content: action }) },
  };
}

function countingModel(model: TinyModel): { model: TinyModel; calls: number[] } {
  const calls: number[] = [];
  return { calls, model: { ...model, sample: (prompts, options) => (calls.push(prompts.length), model.sample(prompts, options)) } };
}

const chat = (text: string): Message[] => [{ role: "user", content: text }];

describe("tiny policy", () => {
  it("returns text, tokens and log-probs that match scoring the rendered sequence", async () => {
    const model = await createModel({ config, seed: 1 });
    const policy = createTinyPolicy({ model, maxNewTokens: 12 });
    const act = await policy.act(chat("push the box"), context(3, 1));
    expect(act.tokens!.length).toBeGreaterThan(0);
    expect(act.tokens!.length).toBeLessThanOrEqual(12);
    expect(act.logprobs).toHaveLength(act.tokens!.length);
    expect(act.message.role).toBe("assistant");
    const prompt = policy.promptTokens(chat("push the box"));
    const [scored] = await model.logprobs([[...prompt, ...act.tokens!]]);
    act.logprobs!.forEach((lp, i) => expect(Math.abs(lp - scored![prompt.length - 1 + i]!)).toBeLessThan(1e-4));
    if (act.tokens!.at(-1) === END) expect(encodeText(act.message.content)).toEqual(act.tokens!.slice(0, -1).filter((t) => t < 256));
    model.dispose();
  });

  it("batches concurrent calls into one sampling call and answers as if each ran alone", async () => {
    const base = await createModel({ config, seed: 2 });
    const { model, calls } = countingModel(base);
    const policy = createTinyPolicy({ model, maxNewTokens: 10, temperature: 1 });
    const inputs = [0, 1, 2, 3, 4].map((i) => ({ conversation: chat(`obs ${i}`), ctx: context(100 + i, 1 + (i % 2)) }));
    const together = await Promise.all(inputs.map((x) => policy.act(x.conversation, x.ctx)));
    expect(calls).toEqual([5]);
    const alone = [];
    for (const x of [...inputs].reverse()) alone.unshift(await policy.act(x.conversation, x.ctx));
    expect(calls).toEqual([5, 1, 1, 1, 1, 1]);
    expect(alone).toEqual(together);
    const otherTurn = await policy.act(inputs[0]!.conversation, context(100, 7));
    expect(otherTurn.tokens).not.toEqual(together[0]!.tokens);
    base.dispose();
  });

  it("fits long conversations into the context and rejects bad settings", async () => {
    const model = await createModel({ config, seed: 3 });
    const policy = createTinyPolicy({ model, maxNewTokens: 16 });
    const long: Message[] = Array.from({ length: 20 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `message number ${i}` }));
    expect(policy.promptTokens(long).length).toBeLessThanOrEqual(48);
    const act = await policy.act(long, context(1, 3));
    expect(act.tokens!.length).toBeLessThanOrEqual(16);
    expect(() => createTinyPolicy({ model, maxNewTokens: 0 })).toThrow(/maxNewTokens/);
    model.dispose();
  });
});
