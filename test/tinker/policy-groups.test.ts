// The Tinker policy's sampling requests: an RL group's first turns are one request with num_samples = the group
// and the group's seed, whichever episode asks first, each episode taking its own sequence; later turns, and
// every turn with group sampling off, are one request per episode with the in-process policy's seed.
import { describe, expect, it } from "vitest";
import type { PolicyContext } from "../../src/core/policy.js";
import { createRng, deriveSeed } from "../../src/core/rng.js";
import { policySeed } from "../../src/policies/tiny/policy.js";
import { createTinkerPolicy, type SampledReply } from "../../src/tinker/policy.js";
import { byteRenderer } from "../../src/policies/renderers/renderer.js";

interface Call {
  readonly seed: number;
  readonly count: number;
}

function fakeServer() {
  const calls: Call[] = [];
  const sampleReplies = async (_prompt: readonly number[], seed: number, count: number): Promise<SampledReply[]> => {
    calls.push({ seed, count });
    return Array.from({ length: count }, (_, j) => ({ tokens: [65 + j, 0], logprobs: [-1, -0.5] }));
  };
  return { calls, sampleReplies };
}

const context = (sample: number, turn: number, group?: PolicyContext["group"]): PolicyContext => ({
  seed: 100 + sample,
  sample,
  turn,
  rng: createRng(1),
  tools: [],
  taskId: "t",
  privileged: undefined as never,
  ...(group === undefined ? {} : { group }),
});

describe("tinker policy", () => {
  const conversation = [{ role: "user" as const, content: "go" }];
  const group = { seed: 77, size: 3 };

  it("samples a group's first turn in one request, the same whichever episode asks first", async () => {
    for (const order of [
      [0, 1, 2],
      [2, 0, 1],
    ]) {
      const server = fakeServer();
      const policy = createTinkerPolicy("tinker:x", byteRenderer(96, 4), server.sampleReplies);
      const replies = await Promise.all(order.map((sample) => policy.act(conversation, context(sample, 1, group))));
      expect(server.calls).toEqual([{ seed: deriveSeed(77, "tinker-group"), count: 3 }]);
      expect(order.map((sample, i) => [sample, replies[i]?.tokens?.[0]])).toEqual(
        order.map((sample) => [sample, 65 + sample]),
      );
    }
  });

  it("samples later turns, and every turn with group sampling off, one episode at a time with the in-process seeds", async () => {
    const server = fakeServer();
    const policy = createTinkerPolicy("tinker:x", byteRenderer(96, 4), server.sampleReplies);
    await policy.act(conversation, context(1, 2, group));
    const off = fakeServer();
    await createTinkerPolicy("tinker:x", byteRenderer(96, 4), off.sampleReplies, { groupSampling: false }).act(
      conversation,
      context(1, 1, group),
    );
    for (const calls of [server.calls, off.calls]) expect(calls).toHaveLength(1);
    expect(server.calls[0]).toEqual({ seed: policySeed({ seed: 101, turn: 2 }), count: 1 });
    expect(off.calls[0]).toEqual({ seed: policySeed({ seed: 101, turn: 1 }), count: 1 });
  });
});
