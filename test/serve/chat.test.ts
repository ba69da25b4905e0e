// A chat is answered, under the tiny context rule, as the in-process tiny policy answers it in an episode (same
// prompts, tokens and log-probs, turn after turn, when given the policy's turn seed), n choices with their own
// seeds, the context rule kept (older messages dropped; a last message too long refused or cut); under vLLM's
// rule the whole conversation or vLLM's 400, max_tokens the rest of the context; raw or processed log-probs, and
// work beyond the queue refused with 429.
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/core/message.js";
import type { PolicyContext } from "../../src/core/policy.js";
import { createRng } from "../../src/core/rng.js";
import { isContextLengthText } from "../../src/policies/openai/faults.js";
import { createModel, type TinyModel } from "../../src/nn/model.js";
import { contextRule } from "../../src/policies/tiny/context.js";
import { policySeed, createTinyPolicy } from "../../src/policies/tiny/policy.js";
import { renderPrompt } from "../../src/policies/tiny/render.js";
import { answerChat, type ChatContext, type ContextRuleName } from "../../src/serve/chat.js";
import { choiceSeed, createSamplingEngine, type EngineSettings } from "../../src/serve/engine.js";
import { HttpError } from "../../src/serve/errors.js";
import { createReplyMemo, type ReplyMemo } from "../../src/serve/reply-memo.js";
import { byteRenderer } from "../../src/serve/renderer.js";
import { parseChatRequest } from "../../src/serve/request.js";
import type { ChatAnswer } from "../../src/serve/response.js";

const config = { vocabSize: 260, contextLength: 128, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 };
type Settings = EngineSettings & {
  readonly defaultMaxTokens: number | undefined;
  readonly cutLongMessages: boolean;
  readonly contextRule: ContextRuleName;
};
const settings: Settings = {
  defaultMaxTokens: 6,
  cutLongMessages: false,
  contextRule: "tiny",
  maxQueue: 64,
  logprobsMode: "raw",
  maxBatch: 64,
  sessions: 16,
};
const user = (content: string): Message => ({ role: "user", content });

interface Engine {
  complete(messages: readonly Message[], fields?: Record<string, unknown>): Promise<ChatAnswer>;
  waiting(): number;
  stats(): ReturnType<ChatContext["engine"]["stats"]>;
}

/** A chat over the model: answers a conversation (with request fields) as the server would. */
function createEngine(model: TinyModel, chosen: Settings, memo: ReplyMemo): Engine {
  const engine = createSamplingEngine(model, chosen);
  const context: ChatContext = {
    engine,
    model,
    settings: { contextRule: chosen.contextRule, defaultMaxTokens: chosen.defaultMaxTokens },
    renderer: byteRenderer({
      contextLength: model.config.contextLength,
      vocabSize: model.config.vocabSize,
      memo,
      toolCallFormat: "hermes",
      cutLongMessages: chosen.cutLongMessages,
    }),
  };
  return {
    complete: (messages, fields = {}) =>
      answerChat(
        context,
        parseChatRequest({ model: "m", messages, seed: 0, logprobs: true, return_token_ids: true, ...fields }, 64, 260),
        () => "0",
      ),
    waiting: () => engine.waiting(),
    stats: () => engine.stats(),
  };
}

function context(seed: number, turn: number, episode: object): PolicyContext {
  return {
    seed,
    sample: 0,
    turn,
    rng: createRng(seed),
    tools: [],
    taskId: "t",
    episode,
    privileged: {
      oracle: () => {
        throw new Error("no oracle");
      },
      validActions: () => [],
      toMessage: (action) => ({ role: "assistant", content: action }),
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("answered");
}

describe("completion engine", () => {
  {
    it("answers each turn of an episode as the in-process policy does, given its turn seed, prefilling as much", async () => {
      const model = await createModel({ config, seed: 8 });
      const served = await createModel({ config, seed: 8 });
      const policy = createTinyPolicy({ model, maxNewTokens: 6 });
      const engine = createEngine(served, settings, createReplyMemo(100));
      for (const seed of [1, 2, 3]) {
        const episode = {};
        const conversation: Message[] = [{ role: "system", content: "push the box" }, user("observation 0")];
        for (let turn = 1; turn <= 8; turn++) {
          const act = await policy.act([...conversation], context(seed, turn, episode));
          const answer = await engine.complete(conversation, { seed: policySeed({ seed, turn }) });
          expect(answer.choices[0]!.tokens).toEqual(act.tokens);
          expect(answer.choices[0]!.logprobs).toEqual(act.logprobs);
          expect(answer.choices[0]!.content).toBe(act.message.content);
          conversation.push(act.message, user(`observation ${turn}: ${"#".repeat(3 * turn)}`));
        }
        policy.endEpisode(episode);
      }
      // Each turn found the session of the turn before: only the new tokens were prefilled, as in the episode.
      expect(served.tokenCounts().prefill).toBe(model.tokenCounts().prefill);
      expect(engine.stats().sessions).toMatchObject({ reused: 21, opened: 3 });
      model.dispose();
      served.dispose();
    });
  }

  it("prefills every whole prompt without sessions, with the same answers", async () => {
    const model = await createModel({ config, seed: 8 });
    const withSessions = createEngine(model, settings, createReplyMemo(100));
    const without = createEngine(model, { ...settings, sessions: 0 }, createReplyMemo(100));
    const conversation: Message[] = [user("observation 0")];
    for (let turn = 1; turn <= 4; turn++) {
      const before = model.tokenCounts().prefill;
      const cached = await withSessions.complete(conversation, { seed: turn });
      const prefilledCached = model.tokenCounts().prefill - before;
      const whole = await without.complete(conversation, { seed: turn });
      expect(whole).toEqual(cached);
      expect(model.tokenCounts().prefill - before - prefilledCached).toBe(cached.promptTokens.length);
      if (turn > 1) expect(prefilledCached).toBeLessThan(cached.promptTokens.length);
      conversation.push({ role: "assistant", content: cached.choices[0]!.content! }, user(`observation ${turn}`));
    }
    expect(without.stats().sessions).toEqual({ idle: 0, reused: 0, opened: 0 });
    model.dispose();
  });

  it("samples choice j with its own seed: choice 0 with the request's, the same answer for the same request", async () => {
    const model = await createModel({ config, seed: 9 });
    const engine = createEngine(model, settings, createReplyMemo(0));
    const conversation = [user("which way?")];
    const together = await engine.complete(conversation, { seed: 5, n: 4 });
    const alone = await Promise.all([0, 1, 2, 3].map((j) => engine.complete(conversation, { seed: choiceSeed(5, j) })));
    expect(together.choices.map((choice) => choice.tokens)).toEqual(alone.map((one) => one.choices[0]!.tokens));
    expect(choiceSeed(5, 0)).toBe(5);
    expect(new Set([0, 1, 2, 3].map((j) => choiceSeed(5, j))).size).toBe(4);
    expect(await engine.complete(conversation, { seed: 5, n: 4 })).toEqual(together);
    model.dispose();
  });

  it("drops older messages as the policy does, refuses a last message that does not fit alone, or cuts it when asked", async () => {
    const model = await createModel({ config, seed: 10 });
    const engine = createEngine(model, settings, createReplyMemo(0));
    const rule = contextRule(128, 6);
    const many = Array.from({ length: 30 }, (_, i) => user(`message ${i}`));
    const answered = await engine.complete(many);
    expect(answered.promptTokens).toEqual(renderPrompt(many, rule.budget));
    const long = [user("x".repeat(rule.budget - 2))];
    const error = await refusal(engine.complete(long));
    expect(error.status).toBe(400);
    expect(error.code).toBe("context_length_exceeded");
    expect(isContextLengthText(error.message)).toBe(true);
    expect(error.message).toMatch(/the last message alone takes 122 tokens and at most 121 fit/);
    await expect(engine.complete([user("x".repeat(rule.budget - 3))])).resolves.toBeDefined();
    const cutting = createEngine(model, { ...settings, cutLongMessages: true }, createReplyMemo(0));
    expect((await cutting.complete(long)).promptTokens).toEqual(renderPrompt(long, rule.budget));
    // An answer longer than the window allows is a plain bad request, not a context-length verdict.
    const tooLong = await refusal(engine.complete(many, { max_tokens: 126 }));
    expect(tooLong.message).toMatch(/^max_tokens: at most 125 for this model/);
    expect(isContextLengthText(tooLong.message)).toBe(false);
    model.dispose();
  });

  it("under vLLM's rule, renders the whole conversation, answers vLLM's 400 when it does not fit, and fills the rest of the context", async () => {
    const model = await createModel({ config, seed: 10 });
    const vllm = createEngine(
      model,
      { ...settings, contextRule: "vllm", defaultMaxTokens: undefined },
      createReplyMemo(0),
    );
    const few = [user("a"), { role: "assistant" as const, content: "b" }, user("c")];
    const answered = await vllm.complete(few, { ignore_eos: true, temperature: 0 });
    expect(answered.promptTokens).toEqual(renderPrompt(few, 128));
    expect(answered.choices[0]!.tokens).toHaveLength(128 - answered.promptTokens.length);
    const many = Array.from({ length: 30 }, (_, i) => user(`message ${i}`));
    const tooLong = await refusal(vllm.complete(many));
    expect(tooLong.code).toBe("context_length_exceeded");
    expect(tooLong.message).toMatch(
      /^messages: This model's maximum context length is 128 tokens\. However, you requested \d+ tokens in the messages, Please reduce the length of the messages\.$/,
    );
    const withAnswer = await refusal(vllm.complete([user("x".repeat(100))], { max_tokens: 40 }));
    expect(withAnswer.message).toMatch(/you requested 143 tokens \(103 in the messages, 40 in the completion\)/);
    const capped = createEngine(model, { ...settings, contextRule: "vllm", defaultMaxTokens: 5 }, createReplyMemo(0));
    expect((await capped.complete(few, { ignore_eos: true })).choices[0]!.tokens).toHaveLength(5);
    const truncated = await vllm.complete(many, { truncate_prompt_tokens: 50, max_tokens: 2 });
    expect(truncated.promptTokens).toEqual(renderPrompt(many, 1000).slice(-50));
    model.dispose();
  });

  it("reports log-probs under the model (raw, what scoring gives) or under the distribution sampled from (processed)", async () => {
    const model = await createModel({ config, seed: 11 });
    const raw = createEngine(model, settings, createReplyMemo(0));
    const processed = createEngine(model, { ...settings, logprobsMode: "processed" }, createReplyMemo(0));
    const conversation = [user("go")];
    const answer = await raw.complete(conversation, { seed: 3, temperature: 0.5 });
    const choice = answer.choices[0]!;
    const [scored] = await model.logprobs([[...answer.promptTokens, ...choice.tokens]]);
    choice.logprobs.forEach((logprob, i) =>
      expect(Math.abs(logprob - scored![answer.promptTokens.length - 1 + i]!)).toBeLessThan(1e-4),
    );
    const sharpened = (await processed.complete(conversation, { seed: 3, temperature: 0.5 })).choices[0]!;
    expect(sharpened.tokens).toEqual(choice.tokens);
    expect(sharpened.logprobs).not.toEqual(choice.logprobs);
    const greedy = (await processed.complete(conversation, { temperature: 0 })).choices[0]!;
    expect(greedy.logprobs.every((logprob) => logprob === 0)).toBe(true);
    model.dispose();
  });

  it("answers 429 with Retry-After when more sequences would wait than the queue holds", async () => {
    const base = await createModel({ config, seed: 12 });
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model: TinyModel = {
      ...base,
      sample: async (prompts, options) => (started(), await gate, base.sample(prompts, options)),
    };
    const engine = createEngine(model, { ...settings, maxQueue: 3 }, createReplyMemo(0));
    const conversation = [user("wait")];
    const first = engine.complete(conversation);
    await running; // the first request is in the model; the queue is empty again
    expect(engine.waiting()).toBe(0);
    const queued = engine.complete(conversation, { n: 3 });
    expect(engine.waiting()).toBe(3);
    const error = await refusal(engine.complete(conversation));
    expect(error.status).toBe(429);
    expect(error.headers["retry-after"]).toBe("1");
    release();
    expect((await first).choices).toHaveLength(1);
    expect((await queued).choices).toHaveLength(3);
    expect((await engine.complete(conversation)).choices).toHaveLength(1);
    base.dispose();
  });
});
