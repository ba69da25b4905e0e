// One sampling request for replies: the asample body carries the session, seq id, prompt, parameters and count, the
// replies come back with their log-probs, and an answer with too few sequences or a log-prob missing is refused.
import { describe, expect, it } from "vitest";
import { replyParams, sampleReplies } from "../../src/tinker/sample.js";
import { TinkerProtocolError } from "../../src/tinker/wire.js";
import { fakeClient } from "./fake-client.js";

const request = (count: number) => ({
  samplingSessionId: "sampling_1",
  seqId: 7,
  prompt: [1, 2, 3],
  params: replyParams([9], 16, 42),
  count,
});

describe("replyParams", () => {
  it("asks for the whole distribution, with the stop tokens, the seed and temperature 1 unless given", () => {
    expect(replyParams([9, 10], 16, 42)).toEqual({
      max_tokens: 16,
      seed: 42,
      stop: [9, 10],
      temperature: 1,
      top_k: -1,
      top_p: 1,
    });
    expect(replyParams([], 4, 0, 0.5).temperature).toBe(0.5);
  });
});

describe("sampleReplies", () => {
  it("sends one asample for `count` replies and returns their tokens and log-probs", async () => {
    const client = fakeClient(() => ({
      sequences: [
        { tokens: [4, 9], logprobs: [-0.5, -0.25], stop_reason: "stop" },
        { tokens: [5], logprobs: [-1], stop_reason: "length" },
      ],
    }));
    expect(await sampleReplies(client, request(2))).toEqual([
      { tokens: [4, 9], logprobs: [-0.5, -0.25] },
      { tokens: [5], logprobs: [-1] },
    ]);
    expect(client.requests).toHaveLength(1);
    expect(client.requests[0]?.path).toBe("/api/v1/asample");
    expect(client.requests[0]?.body).toMatchObject({
      sampling_session_id: "sampling_1",
      seq_id: 7,
      num_samples: 2,
      sampling_params: { max_tokens: 16, seed: 42, stop: [9] },
    });
  });

  it("refuses an answer with another number of sequences, or a token without its log-prob", async () => {
    const tooFew = fakeClient(() => ({ sequences: [{ tokens: [4], logprobs: [-1], stop_reason: "stop" }] }));
    await expect(sampleReplies(tooFew, request(2))).rejects.toThrow(TinkerProtocolError);
    const missing = fakeClient(() => ({ sequences: [{ tokens: [4, 5], logprobs: [-1], stop_reason: "stop" }] }));
    await expect(sampleReplies(missing, request(1))).rejects.toThrow(/one log-prob per token/);
    const none = fakeClient(() => ({ sequences: [{ tokens: [4], logprobs: null, stop_reason: "stop" }] }));
    await expect(sampleReplies(none, request(1))).rejects.toThrow(TinkerProtocolError);
  });
});
