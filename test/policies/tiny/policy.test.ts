// The tiny policy: answers up to end-of-turn with tokens and log-probs, batched concurrent calls, answers that
// do not depend on batching or scheduling, and per-episode KV-cache sessions (each turn prefills only its new
// tokens; the sequences RL rebuilds are the ones the answers were sampled in).
import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/core/message.js";
import type { Act, PolicyContext } from "../../../src/core/policy.js";
import { createRng } from "../../../src/core/rng.js";
import { createModel, type KvSession, type TinyModel } from "../../../src/nn/model.js";
import { encodeText, END } from "../../../src/nn/tokenizer.js";
import { turnPrompt, type EpisodeMessages } from "../../../src/policies/tiny/context.js";
import { createTinyPolicy, type TinyPolicy } from "../../../src/policies/tiny/policy.js";
import { maxAbsDiff } from "../../nn/helpers.js";

const config = { vocabSize: 260, contextLength: 64, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 };

function context(seed: number, turn: number, episode?: object): PolicyContext {
  return {
    seed,
    sample: 0,
    turn,
    rng: createRng(seed),
    tools: [],
    taskId: "t",
    ...(episode === undefined ? {} : { episode }),
    privileged: {
      oracle: () => {
        throw new Error("no oracle for LM policies");
      },
      validActions: () => [],
      toMessage: (action) => ({ role: "assistant", content: action }),
    },
  };
}

function countingModel(model: TinyModel): { model: TinyModel; calls: number[] } {
  const calls: number[] = [];
  return {
    calls,
    model: { ...model, sample: (prompts, options) => (calls.push(prompts.length), model.sample(prompts, options)) },
  };
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
    const prompt = turnPrompt(policy.rule, chat("push the box"));
    const [scored] = await model.logprobs([[...prompt, ...act.tokens!]]);
    act.logprobs!.forEach((lp, i) => expect(Math.abs(lp - scored![prompt.length - 1 + i]!)).toBeLessThan(1e-4));
    if (act.tokens!.at(-1) === END)
      expect(encodeText(act.message.content)).toEqual(act.tokens!.slice(0, -1).filter((t) => t < 256));
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
    const long: Message[] = Array.from({ length: 20 }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: `message number ${i}`,
    }));
    expect(turnPrompt(policy.rule, long).length).toBeLessThanOrEqual(48);
    const act = await policy.act(long, context(1, 3));
    expect(act.tokens!.length).toBeLessThanOrEqual(16);
    expect(() => createTinyPolicy({ model, maxNewTokens: 0 })).toThrow(/maxNewTokens/);
    model.dispose();
  });

  it("keeps each episode in a KV-cache session: turns prefill only their new tokens, in the sequences RL rebuilds", async () => {
    const base = await createModel({ config: { ...config, contextLength: 160 }, seed: 4 });
    const sessions: KvSession[] = [];
    const model: TinyModel = { ...base, openSession: () => (sessions.push(base.openSession()), sessions.at(-1)!) };
    const policy = createTinyPolicy({ model, maxNewTokens: 6 });
    const episode = {};
    const played = await play(model, policy, episode, 4, 9);
    const replies = played.acts.map((act) => act.tokens!);
    const sequences = policy.episodeSequences(played.episode, replies);
    expect(sequences).toHaveLength(1); // 4 short turns fit one segment
    const [scored] = await model.logprobs([sequences[0]!.tokens]);
    sequences[0]!.replies.forEach((span) => {
      expect(sequences[0]!.tokens.slice(span.start, span.end)).toEqual(replies[span.turn]);
      expect(
        maxAbsDiff(played.acts[span.turn]!.logprobs!, scored!.subarray(span.start - 1, span.end - 1)),
      ).toBeLessThan(1e-4);
    });
    // Every token was run once: the segment up to its last reply was prefilled or decoded, and no more.
    expect(played.prefilled + played.decoded).toBe(sequences[0]!.tokens.length - 1);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.closed).toBe(false);
    policy.endEpisode(episode);
    expect(sessions[0]!.closed).toBe(true);
    await play(model, policy, episode, 1, 10); // the same handle again: a new episode, a new session
    expect(sessions).toHaveLength(2);
    base.dispose();
  });

  it("continues the segment with the message an intervention played in its reply's place, as the conversation reads", async () => {
    const model = await createModel({ config: { ...config, contextLength: 160 }, seed: 6 });
    const prompts: number[][] = [];
    const recording: TinyModel = {
      ...model,
      sample: (batch, options) => (prompts.push(...batch.map((prompt) => [...prompt])), model.sample(batch, options)),
    };
    const policy = createTinyPolicy({ model: recording, maxNewTokens: 6 });
    const episode = {};
    const conversation: Message[] = chat("obs 1");
    const first = await policy.act(conversation, context(3, 1, episode));
    // The expert's move is played instead of the reply: the next prompt reads it, not the sampled tokens.
    const expert: Message = { role: "assistant", content: "Up" };
    conversation.push(expert, { role: "user", content: "obs 2" });
    await policy.act(conversation, context(3, 2, episode));
    expect(prompts[1]).toEqual(
      turnPrompt(policy.rule, conversation, { prompt: prompts[0]!, reply: [...encodeText("Up"), END], messages: 2 }),
    );
    expect(prompts[1]!.slice(0, prompts[0]!.length)).toEqual(prompts[0]);
    expect(first.message.content).not.toBe("Up");
    policy.endEpisode(episode);
    model.dispose();
  });

  it("answers each episode the same whether its turns are batched with other episodes' or not", async () => {
    const model = await createModel({ config: { ...config, contextLength: 160 }, seed: 5 });
    const policy = createTinyPolicy({ model, maxNewTokens: 6 });
    const together = await Promise.all([0, 1, 2].map((i) => play(model, policy, {}, 3, 20 + i)));
    const alone = [];
    for (const i of [2, 1, 0]) alone.unshift(await play(model, policy, {}, 3, 20 + i));
    expect(alone.map((p) => p.acts)).toEqual(together.map((p) => p.acts));
    model.dispose();
  });
});

/** Plays `turns` turns of one episode (observations "obs <seed> <turn>"), counting the model's tokens. */
async function play(
  model: TinyModel,
  policy: TinyPolicy,
  episode: object,
  turns: number,
  seed: number,
): Promise<{ acts: Act[]; episode: EpisodeMessages; prefilled: number; decoded: number }> {
  const conversation: Message[] = [{ role: "system", content: "sys" }];
  const acts: Act[] = [];
  const record: { observation: Message[]; action: Message }[] = [];
  let prefilled = 0;
  let decoded = 0;
  for (let turn = 1; turn <= turns; turn++) {
    const observation: Message = { role: "user", content: `obs ${seed} ${turn}` };
    conversation.push(observation);
    const counts = model.tokenCounts();
    const act = await policy.act(conversation, context(seed, turn, episode));
    prefilled += model.tokenCounts().prefill - counts.prefill;
    decoded += model.tokenCounts().decode - counts.decode;
    acts.push(act);
    record.push({ observation: [observation], action: act.message });
    conversation.push(act.message);
  }
  return { acts, episode: { preamble: [conversation[0]!], turns: record }, prefilled, decoded };
}
