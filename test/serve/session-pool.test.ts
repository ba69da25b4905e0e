// The session pool finds the session that holds a conversation's turn before (either reading of a reply that
// ends in an end token), opens one otherwise, keeps at most `capacity` idle (closing the least recently used),
// and keeps none with capacity 0.
import { describe, expect, it } from "vitest";
import { createModel } from "../../src/nn/model.js";
import { END } from "../../src/nn/tokenizer.js";
import { cachedAfter, createSessionPool } from "../../src/serve/session-pool.js";

const config = { vocabSize: 260, contextLength: 64, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 };

describe("session pool", () => {
  it("reads what a session holds after a turn: the reply but its last token, or but two when the end token may be added", () => {
    expect(cachedAfter({ prompt: [258, 1, 259], reply: [65, 66, END], messages: 2 })).toEqual([
      [258, 1, 259, 65, 66],
      [258, 1, 259, 65],
    ]);
    expect(cachedAfter({ prompt: [258, 1, 259], reply: [65, 66], messages: 2 })).toEqual([[258, 1, 259, 65]]);
  });

  it("hands out the session that holds the turn before, a new one otherwise, and bounds the idle ones", async () => {
    const model = await createModel({ config, seed: 1 });
    const pool = createSessionPool(() => model.openSession(), 2);
    const prompts = [
      [258, 10, 256, 259],
      [258, 11, 256, 259],
      [258, 12, 256, 259],
    ];
    const turns = [];
    for (const [i, prompt] of prompts.entries()) {
      const session = pool.take(undefined)!;
      const [answer] = await model.sample([prompt], { maxNewTokens: 4, seeds: [i], sessions: [session] });
      pool.give(session);
      turns.push({ session, previous: { prompt, reply: answer!.tokens, messages: 2 } });
    }
    // Three sessions given back, two kept: the oldest was closed.
    expect(pool.stats()).toEqual({ idle: 2, reused: 0, opened: 3 });
    expect(turns[0]!.session.closed).toBe(true);
    expect(pool.take(turns[0]!.previous)).not.toBe(turns[0]!.session);
    expect(pool.take(turns[2]!.previous)).toBe(turns[2]!.session);
    expect(pool.take(turns[2]!.previous)).not.toBe(turns[2]!.session); // taken: it belongs to one row at a time
    expect(pool.stats()).toMatchObject({ idle: 1, reused: 1, opened: 5 });
    const none = createSessionPool(() => model.openSession(), 0);
    expect(none.take(turns[1]!.previous)).toBeUndefined();
    model.dispose();
  });
});
