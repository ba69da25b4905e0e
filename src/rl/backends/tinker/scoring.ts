// Log-probs of training sequences' response tokens on a Tinker server, without gradients, two ways:
//   forward      forward_backward with forward_only, cross_entropy with weights 0, on the training model: its
//                results' logprobs (undefined when the service stripped them from the results)
//   sampler      a sampling session on the same weights, asample with prompt_logprobs and max_tokens 1 (what the
//                SDK's SamplingClient.compute_logprobs sends): the prompt log-probs of each whole sequence, cut to
//                its response tokens; one request per sequence. The reference scorers (KL) use it on frozen
//                weights, and the backend when the service strips the forward pass's log-probs.
import type { TrainSequence } from "../../backend.js";
import { tokenChunks } from "../token-chunks.js";
import type { TinkerClient } from "../../../tinker/client.js";
import { crossEntropyDatum, responseLogprobs } from "./datum.js";
import * as api from "../../../tinker/operations.js";
import { modelInput, TinkerProtocolError } from "../../../tinker/wire.js";

/** Response-token log-probs from a forward_only pass, per request chunk; undefined when the results have none. */
export async function forwardScores(
  client: TinkerClient,
  modelId: string,
  nextSeq: () => number,
  batch: readonly TrainSequence[],
  requestTokens: number,
): Promise<Float32Array[] | undefined> {
  const out: Float32Array[] = [];
  for (const part of tokenChunks(batch, requestTokens)) {
    const output = await api.forwardBackward(
      client,
      modelId,
      nextSeq(),
      { data: part.map((sequence) => crossEntropyDatum(sequence)), loss_fn: "cross_entropy" },
      true,
    );
    const scored = responseLogprobs(output, part);
    if (scored === undefined) return undefined;
    out.push(...scored);
  }
  return out;
}

/** The response tokens' log-probs of a sequence, cut out of the prompt log-probs of the whole sequence. */
export function promptResponseLogprobs(output: api.PromptLogprobs, sequence: TrainSequence): Float32Array {
  if (output.length !== sequence.tokens.length)
    throw new TinkerProtocolError(
      `asample returned ${output.length} prompt log-probs for a prompt of ${sequence.tokens.length} tokens`,
    );
  return Float32Array.from(
    sequence.responses.flatMap((span) => output.slice(span.start, span.end)),
    (value) => {
      if (value === null) throw new TinkerProtocolError("asample returned no prompt log-prob for a response token");
      return value;
    },
  );
}

/** Scores one sequence through a sampling session (prompt_logprobs, max_tokens 1); `seqId` numbers the request. */
export async function samplerScore(
  client: TinkerClient,
  samplingSessionId: string,
  seqId: number,
  sequence: TrainSequence,
): Promise<Float32Array> {
  const output = await api.sample(client, {
    samplingSessionId,
    seqId,
    prompt: modelInput(sequence.tokens),
    params: { max_tokens: 1, seed: 0, stop: [], temperature: 1, top_k: -1, top_p: 1 },
    promptLogprobs: true,
  });
  return promptResponseLogprobs(output.prompt_logprobs ?? [], sequence);
}
