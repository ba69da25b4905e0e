// One sampling request for replies: asample on a sampling session, `count` sequences from one prompt (the server
// prefills it once), each with its tokens and their log-probs, checked (as many sequences as asked, one log-prob per
// token). What the trainer backend's rollouts and the evaluation policy (sampler-policy.ts) both send, with the
// sampling parameters of a reply: the renderer's stop tokens, the whole distribution (top_k -1, top_p 1).
import type { TinkerClient } from "./client.js";
import * as api from "./operations.js";
import type { SampledReply } from "./policy.js";
import { modelInput, TinkerProtocolError, type SamplingParams } from "./wire.js";

/** The sampling parameters of a reply of at most `maxTokens` tokens that ends at one of `stopTokens`, seeded. */
export function replyParams(
  stopTokens: readonly number[],
  maxTokens: number,
  seed: number,
  temperature = 1,
): SamplingParams {
  return { max_tokens: maxTokens, seed, stop: [...stopTokens], temperature, top_k: -1, top_p: 1 };
}

export interface ReplyRequest {
  readonly samplingSessionId: string;
  /** Unique per request within the sampling session. */
  readonly seqId: number;
  readonly prompt: readonly number[];
  readonly params: SamplingParams;
  readonly count: number;
}

/** `count` replies to a prompt, in one request. */
export async function sampleReplies(client: TinkerClient, request: ReplyRequest): Promise<SampledReply[]> {
  const output = await api.sample(client, {
    samplingSessionId: request.samplingSessionId,
    seqId: request.seqId,
    prompt: modelInput(request.prompt),
    params: request.params,
    numSamples: request.count,
  });
  if (output.sequences.length !== request.count)
    throw new TinkerProtocolError(
      `asample returned ${output.sequences.length} sequences for num_samples ${request.count}`,
    );
  return output.sequences.map((sequence) => {
    if (
      sequence.logprobs === undefined ||
      sequence.logprobs === null ||
      sequence.logprobs.length !== sequence.tokens.length
    )
      throw new TinkerProtocolError("asample returned a sequence without one log-prob per token");
    return { tokens: sequence.tokens, logprobs: sequence.logprobs };
  });
}
