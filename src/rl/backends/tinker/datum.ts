// Training sequences as Tinker data, and back (pure functions). A sequence of L tokens is one Datum whose
// model_input is tokens[0, L-1) and whose per-position loss inputs have L-1 values: position p predicts
// tokens[p + 1], so response token i (a span [start, end) of the sequence) sits at position i - 1. Positions
// outside the responses carry weight 0 (cross_entropy) or advantage 0 (importance_sampling, ppo): context.
// Values travel as float32 (what the server computes in), rounded here so that both sides hold the same
// numbers. A result may come back without log-probs (the service can strip them): responseLogprobs says so with
// undefined, and the caller decides whether it needs them (backend.ts: scoring.ts gets them another way).
import { TinkerProtocolError } from "../../../tinker/wire.js";
import { modelInput, tensor, type Datum, type ForwardBackwardOutput } from "../../../tinker/wire.js";
import { responseLength, type TrainSequence } from "../../backend.js";

/** The input positions that predict the response tokens of `sequence`, in order. */
export function responsePositions(sequence: TrainSequence): number[] {
  return sequence.responses.flatMap((span) =>
    Array.from({ length: span.end - span.start }, (_, k) => span.start + k - 1),
  );
}

/** Per-position values: `values[k]` (one per response token) at the k-th response position, 0 elsewhere. */
function scatter(sequence: TrainSequence, values: ArrayLike<number>): Float32Array {
  const out = new Float32Array(sequence.tokens.length - 1);
  responsePositions(sequence).forEach((position, k) => {
    out[position] = values[k]!;
  });
  return out;
}

function baseDatum(sequence: TrainSequence, inputs: Readonly<Record<string, Float32Array>>): Datum {
  const lossInputs: Record<string, ReturnType<typeof tensor>> = {
    target_tokens: tensor(sequence.tokens.slice(1), "int64"),
  };
  for (const [name, values] of Object.entries(inputs)) lossInputs[name] = tensor(values, "float32");
  return { model_input: modelInput(sequence.tokens.slice(0, -1)), loss_fn_inputs: lossInputs };
}

/** cross_entropy data: loss = -sum_t weights_t log p_t, weights given per response token (0: scoring only). */
export function crossEntropyDatum(sequence: TrainSequence, weights?: ArrayLike<number>): Datum {
  return baseDatum(sequence, { weights: scatter(sequence, weights ?? new Float32Array(responseLength(sequence))) });
}

/** importance_sampling / ppo data: behaviour log-probs and advantages per response token. */
export function policyLossDatum(
  sequence: TrainSequence,
  oldLogprobs: ArrayLike<number>,
  advantages: ArrayLike<number>,
): Datum {
  return baseDatum(sequence, { logprobs: scatter(sequence, oldLogprobs), advantages: scatter(sequence, advantages) });
}

/** The current log-probs of each sequence's response tokens, cut out of a forward(_backward) answer; undefined when
 * the answer has none at all (the service may strip them from its results: drop_fwdbwd_logprobs). Log-probs for
 * some data and not others, or of the wrong length, are a protocol error. */
export function responseLogprobs(
  output: ForwardBackwardOutput,
  batch: readonly TrainSequence[],
): Float32Array[] | undefined {
  if (output.loss_fn_outputs.every((record) => record.logprobs === undefined)) return undefined;
  if (output.loss_fn_outputs.length !== batch.length)
    throw new TinkerProtocolError(
      `the server returned ${output.loss_fn_outputs.length} loss outputs for ${batch.length} data`,
    );
  return batch.map((sequence, i) => {
    const values = output.loss_fn_outputs[i]?.logprobs?.data;
    if (values === undefined || values.length !== sequence.tokens.length - 1) {
      throw new TinkerProtocolError(
        `loss output ${i} has ${values === undefined ? "no logprobs" : `${values.length} logprobs`}, expected ${sequence.tokens.length - 1}`,
      );
    }
    return Float32Array.from(responsePositions(sequence), (position) => values[position]!);
  });
}
