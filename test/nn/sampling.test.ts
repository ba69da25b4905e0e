// Sampling in KV-cache sessions: a conversation sampled turn by turn in one session (each turn prefills only
// its new tokens after the cached ones) gives the log-probs of a full prefill of the same conversation and of
// scoring it afterwards, keeps results independent of batch-mates and threads, recomputes only past the
// common prefix when a prompt diverges, recycles blocks, and refuses misuse clearly.
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/rng.js";
import { sharedHeap } from "../../src/nn/heap.js";
import { createModel, type KvSession, type TinyModel } from "../../src/nn/model.js";
import { ASSISTANT, END, USER } from "../../src/nn/tokenizer.js";
import { maxAbsDiff } from "./helpers.js";

const config = { vocabSize: 260, contextLength: 200, layers: 2, dModel: 32, heads: 4, hiddenSize: 48 };

/** An observation of n random bytes, as a user turn then the assistant marker. */
function observation(seed: number, n: number): number[] {
  const rng = createRng(seed);
  return [USER, ...Array.from({ length: n }, () => rng.int(256)), END, ASSISTANT];
}

interface Turn {
  readonly prompt: number[];
  readonly tokens: number[];
  readonly logprobs: number[];
}

/** Samples `turns` turns: each prompt is the previous prompt and answer (end token added) and a new observation. */
async function converse(
  model: TinyModel,
  turns: number,
  session: KvSession | undefined,
  seed: number,
): Promise<Turn[]> {
  const out: Turn[] = [];
  let prompt = observation(seed, 23);
  for (let t = 0; t < turns; t++) {
    const [answer] = await model.sample([prompt], {
      maxNewTokens: 7,
      temperature: 1,
      seeds: [seed + t],
      sessions: [session],
    });
    out.push({ prompt, tokens: answer!.tokens, logprobs: answer!.logprobs });
    const closed = answer!.tokens.at(-1) === END ? answer!.tokens : [...answer!.tokens, END];
    prompt = [...prompt, ...closed, ...observation(seed * 31 + t, 11 + 5 * t)];
  }
  return out;
}

describe("sampling in sessions", () => {
  it("gives the log-probs of a full prefill and of scoring the whole conversation (max abs diff < 1e-4)", async () => {
    const model = await createModel({ config, seed: 1 });
    const session = model.openSession();
    const before = model.tokenCounts().prefill;
    const cached = await converse(model, 5, session, 7);
    const prefilled = model.tokenCounts().prefill - before;
    const fresh = await converse(model, 5, undefined, 7);
    expect(fresh.map((t) => t.tokens)).toEqual(cached.map((t) => t.tokens));
    const last = cached[cached.length - 1]!;
    const [scored] = await model.logprobs([[...last.prompt, ...last.tokens]]);
    cached.forEach((turn, t) => {
      expect(maxAbsDiff(turn.logprobs, fresh[t]!.logprobs)).toBeLessThan(1e-4);
      expect(
        maxAbsDiff(
          turn.logprobs,
          scored!.subarray(turn.prompt.length - 1, turn.prompt.length - 1 + turn.tokens.length),
        ),
      ).toBeLessThan(1e-4);
    });
    // Each turn prefilled only what the cache did not hold: the new observation and the answer's last token.
    expect(session.cached).toEqual([...last.prompt, ...last.tokens.slice(0, -1)]);
    const reused = cached
      .slice(1)
      .reduce((sum, _, t) => sum + cached[t]!.prompt.length + cached[t]!.tokens.length - 1, 0);
    expect(prefilled).toBe(cached.reduce((sum, turn) => sum + turn.prompt.length, 0) - reused);
    session.close();
    model.dispose();
  });

  it("shares the prefill of a group's identical first prompts, with the answers of separate prefills, bit for bit, turn after turn", async () => {
    const model = await createModel({ config, seed: 3 });
    const group = [observation(5, 40), observation(5, 40), observation(6, 12), observation(5, 40), observation(5, 40)];
    const seeds = [11, 12, 13, 14, 15];
    const sessions = group.map(() => model.openSession());
    const before = model.tokenCounts().prefill;
    const together = await model.sample(group, { maxNewTokens: 6, seeds, sessions });
    // Two shards (prompt 0, and prompts 1-4: the split weighs the shared ones as decoding only): each computes the
    // 40-byte prompt once, the second shard the other prompt too.
    expect(model.tokenCounts().prefill - before).toBe(2 * group[0]!.length + group[2]!.length);
    const next = group.map((p, i) => [...p, ...together[i]!.tokens, END, ...observation(20 + i, 9)]);
    const second = await model.sample(next, { maxNewTokens: 6, seeds: seeds.map((s) => s + 100), sessions });
    for (const [i, prompt] of group.entries()) {
      const alone = model.openSession();
      const [first] = await model.sample([prompt], { maxNewTokens: 6, seeds: [seeds[i]!], sessions: [alone] });
      expect(first).toEqual(together[i]);
      const [then] = await model.sample([next[i]!], { maxNewTokens: 6, seeds: [seeds[i]! + 100], sessions: [alone] });
      expect(then).toEqual(second[i]);
      alone.close();
    }
    model.dispose();
  });

  it("samples a session the same alone, among other sessions, and on one or two threads", async () => {
    const results = [];
    for (const threads of [1, 2]) {
      const model = await createModel({ config, seed: 2, threads });
      const sessions = [model.openSession(), model.openSession(), model.openSession()];
      const prompts = [observation(1, 30), observation(2, 5), observation(3, 60)];
      let answers = await model.sample(prompts, { maxNewTokens: 6, seeds: [1, 2, 3], sessions });
      const next = prompts.map((p, i) => [...p, ...answers[i]!.tokens, END, ...observation(10 + i, 9)]);
      answers = await model.sample(next, { maxNewTokens: 6, seeds: [4, 5, 6], sessions });
      const alone = model.openSession();
      await model.sample([prompts[1]!], { maxNewTokens: 6, seeds: [2], sessions: [alone] });
      const [single] = await model.sample([next[1]!], { maxNewTokens: 6, seeds: [5], sessions: [alone] });
      expect(single).toEqual(answers[1]);
      results.push(answers);
      model.dispose();
    }
    expect(results[1]).toEqual(results[0]);
  });

  it("keeps only the common prefix of a diverging prompt, and recycles closed sessions' blocks", async () => {
    const model = await createModel({ config, seed: 3 });
    const session = model.openSession();
    const prompt = observation(4, 40);
    await model.sample([prompt], { maxNewTokens: 4, seeds: [1], sessions: [session] });
    const other = [...prompt.slice(0, 10), ...observation(5, 20)];
    const [inSession] = await model.sample([other], { maxNewTokens: 4, seeds: [2], sessions: [session] });
    const [alone] = await model.sample([other], { maxNewTokens: 4, seeds: [2] });
    expect(inSession!.tokens).toEqual(alone!.tokens);
    expect(maxAbsDiff(inSession!.logprobs, alone!.logprobs)).toBeLessThan(1e-4);
    session.close();
    expect(session.closed).toBe(true);
    const used = sharedHeap().used();
    for (let i = 0; i < 3; i++) {
      const again = model.openSession();
      await model.sample([prompt], { maxNewTokens: 2, seeds: [1], sessions: [again] });
      again.close();
    }
    expect(sharedHeap().used()).toBe(used);
    model.dispose();
  });

  it("refuses closed, repeated and foreign sessions", async () => {
    const model = await createModel({ config, seed: 4 });
    const otherModel = await createModel({ config, seed: 4 });
    const session = model.openSession();
    await expect(
      model.sample([[1], [2]], { maxNewTokens: 1, seeds: [1, 2], sessions: [session, session] }),
    ).rejects.toThrow(/twice/);
    await expect(
      model.sample([[1]], { maxNewTokens: 1, seeds: [1], sessions: [otherModel.openSession()] }),
    ).rejects.toThrow(/another model/);
    await expect(model.sample([[1]], { maxNewTokens: 1, seeds: [1], sessions: [] })).rejects.toThrow(/one session/);
    session.close();
    await expect(model.sample([[1]], { maxNewTokens: 1, seeds: [1], sessions: [session] })).rejects.toThrow(/closed/);
    model.dispose();
    otherModel.dispose();
  });
});
