// What the stand-in server computes, with budgetrl's in-process model: the losses of a forward_backward (from
// the datums of its protobuf body, decoded by standin-proto.ts) and sampling with a prefix cache of KV sessions.
//
// Losses: cross_entropy (backward with the weights as coefficients), ppo / importance_sampling (the
// clipped-ratio coefficients of src/rl/loss/ppo.ts per position); forward_only runs no backward. Sampling: a
// prompt reuses the longest idle session whose cached tokens it extends, as the in-process policy keeps each
// episode's session, so that sampling gives the same tokens and log-probs bit for bit. A request of num_samples
// K samples K sequences of its prompt: with K = 1 from the request's seed (the in-process policy's seed when the
// client sends it), with K > 1 from deriveSeed(seed, "standin-sample", j) for sequence j (the protocol leaves
// how a server seeds the samples of one request to the server).
import { deriveSeed } from "../../src/core/rng.js";
import type { KvSession, TinyModel } from "../../src/nn/model.js";
import { ppoCoefficients } from "../../src/rl/loss/ppo.js";
import { tokenChunks } from "../../src/rl/backends/token-chunks.js";
import type { JsonForwardBackwardOutput, JsonSampleOutput } from "./standin-proto.js";

/** A request the server refuses (400 at submission, or a failed future). */
export class RequestFailure extends Error {}

export const LOSSES = ["cross_entropy", "importance_sampling", "ppo"];

interface Row {
  readonly tokens: number[];
  readonly targets: number[];
  readonly weights?: Float32Array;
  readonly logprobs?: Float32Array;
  readonly advantages?: Float32Array;
}

interface ProtoTensor {
  readonly dense?: Uint8Array;
  readonly sparse_csr?: unknown;
  readonly dtype?: number;
  readonly shape?: readonly number[];
}

function tensorValues(tensor: ProtoTensor | undefined, name: string): number[] | undefined {
  if (tensor === undefined) return undefined;
  if (tensor.sparse_csr !== undefined || tensor.dense === undefined)
    throw new RequestFailure(`loss_fn_inputs.${name}: the stand-in reads dense tensors only`);
  const bytes = tensor.dense;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (tensor.dtype === 1) return Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getFloat32(i * 4, true));
  if (tensor.dtype === 2)
    return Array.from({ length: bytes.byteLength / 8 }, (_, i) => Number(view.getBigInt64(i * 8, true)));
  throw new RequestFailure(`loss_fn_inputs.${name}: dtype ${String(tensor.dtype)} is not float32 or int64`);
}

function int32Values(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.byteLength / 4 }, (_, i) => view.getInt32(i * 4, true));
}

/** The rows of a decoded ForwardBackwardRequest's data. */
export function readRows(data: unknown, lossFn: string): Row[] {
  if (!Array.isArray(data) || data.length === 0) throw new RequestFailure("data must be a non-empty list of Datum");
  return data.map(
    (datum: {
      model_input?: { encoded_text?: { tokens?: Uint8Array } }[];
      loss_fn_inputs?: Record<string, ProtoTensor>;
    }) => {
      const inputs = (datum.model_input ?? []).flatMap((chunk) => {
        if (chunk.encoded_text === undefined) throw new RequestFailure("the stand-in reads encoded_text chunks only");
        return int32Values(chunk.encoded_text.tokens ?? new Uint8Array());
      });
      const inputsOf = datum.loss_fn_inputs ?? {};
      const known = new Set(["target_tokens", "weights", "logprobs", "advantages"]);
      for (const name of Object.keys(inputsOf))
        if (!known.has(name)) throw new RequestFailure(`loss_fn_inputs.${name} is not an input of ${lossFn}`);
      const targets = tensorValues(inputsOf.target_tokens, "target_tokens");
      if (targets === undefined) throw new RequestFailure("loss_fn_inputs.target_tokens is required");
      if (targets.length !== inputs.length)
        throw new RequestFailure(`target_tokens has ${targets.length} values for ${inputs.length} input tokens`);
      const values = (name: string, required: boolean): Float32Array | undefined => {
        const list = tensorValues(inputsOf[name], name);
        if (list === undefined && required) throw new RequestFailure(`loss_fn_inputs.${name} is required by ${lossFn}`);
        if (list !== undefined && list.length !== inputs.length)
          throw new RequestFailure(`loss_fn_inputs.${name} has ${list.length} values for ${inputs.length} positions`);
        return list === undefined ? undefined : Float32Array.from(list);
      };
      const policy = lossFn !== "cross_entropy";
      const [weights, logprobs, advantages] = [
        values("weights", false),
        values("logprobs", policy),
        values("advantages", policy),
      ];
      return {
        tokens: [...inputs, targets[targets.length - 1] as number],
        targets,
        ...(weights === undefined ? {} : { weights }),
        ...(logprobs === undefined ? {} : { logprobs }),
        ...(advantages === undefined ? {} : { advantages }),
      };
    },
  );
}

/** Forward (and backward) over rows in the in-process backend's chunks; per-row log-probs and losses. */
export async function runLoss(
  model: TinyModel,
  rows: readonly Row[],
  lossFn: string,
  config: Readonly<Record<string, number>>,
  backward: boolean,
): Promise<JsonForwardBackwardOutput> {
  const outputs: JsonForwardBackwardOutput["loss_fn_outputs"][number][] = [];
  let lossSum = 0;
  for (const part of tokenChunks(rows, 8192)) {
    const seqLen = Math.max(1, ...part.map((row) => row.targets.length));
    const tokens = new Int32Array(part.length * seqLen);
    const targets = new Int32Array(part.length * seqLen).fill(-1);
    part.forEach((row, r) =>
      row.targets.forEach((target, p) => {
        tokens[r * seqLen + p] = row.tokens[p] as number;
        targets[r * seqLen + p] = target;
      }),
    );
    const result = await model.forward({
      tokens,
      targets,
      batchSize: part.length,
      seqLen,
      lengths: part.map((row) => Math.max(1, row.targets.length)),
    });
    const coefficients = new Float32Array(part.length * seqLen);
    part.forEach((row, r) => {
      const logprobs = result.logprobs.slice(r * seqLen, r * seqLen + row.targets.length);
      let elementwise: Float32Array;
      if (lossFn === "cross_entropy") {
        const weights = row.weights ?? new Float32Array(row.targets.length).fill(1);
        coefficients.set(weights, r * seqLen);
        elementwise = logprobs.map((value, p) => -(weights[p] as number) * value);
      } else {
        const bounds =
          lossFn === "ppo"
            ? { clipLow: 1 - (config.clip_low_threshold ?? 0.8), clipHigh: (config.clip_high_threshold ?? 1.2) - 1 }
            : { clipLow: 1, clipHigh: Number.POSITIVE_INFINITY };
        const mask = new Float32Array(row.targets.length).fill(1);
        const ppo = ppoCoefficients(
          { logprobs, oldLogprobs: row.logprobs as Float32Array, advantages: row.advantages as Float32Array, mask },
          { ...bounds, klCoefficient: 0 },
        );
        coefficients.set(ppo.coefficients, r * seqLen);
        elementwise = logprobs.map((value, p) => {
          const ratio = Math.exp(value - (row.logprobs?.[p] as number));
          const advantage = row.advantages?.[p] as number;
          return -Math.min(
            ratio * advantage,
            Math.min(Math.max(ratio, 1 - bounds.clipLow), 1 + bounds.clipHigh) * advantage,
          );
        });
      }
      lossSum += elementwise.reduce((sum, value) => sum + value, 0);
      outputs.push({
        logprobs: { data: Array.from(logprobs), dtype: "float32" },
        elementwise_loss: { data: Array.from(elementwise), dtype: "float32" },
      });
    });
    if (backward) await model.backward(coefficients, { normaliser: 1 });
  }
  return { loss_fn_output_type: "ArrayRecord", loss_fn_outputs: outputs, metrics: { "loss:sum": lossSum } };
}

// ---- sampling ----

export interface SampleJob {
  readonly maxTokens: number;
  readonly seeds: readonly number[];
  readonly stop: readonly number[];
  readonly temperature: number;
  readonly topP: number;
  readonly promptLogprobs: boolean;
}

interface CachedSession {
  readonly session: KvSession;
  busy: boolean;
  used: number;
}

type Sequence = JsonSampleOutput["sequences"][number];

interface Queued {
  readonly prompt: readonly number[];
  readonly seed: number;
  readonly job: SampleJob;
  readonly resolve: (value: Sequence) => void;
  readonly reject: (error: unknown) => void;
}

export interface Sampler {
  readonly model: TinyModel;
  readonly owned: boolean;
  /** Samples the job's sequences of one prompt (one per seed), with prompt log-probs when asked. */
  sample(prompt: readonly number[], job: SampleJob): Promise<JsonSampleOutput>;
  close(): void;
}

export function createSampler(model: TinyModel, owned: boolean, cacheSessions: number): Sampler {
  const sessions: CachedSession[] = [];
  const queue: Queued[] = [];
  let running = false;
  let clock = 0;

  /** The idle session whose cached tokens the prompt extends (the longest), or a new one. */
  const sessionFor = (prompt: readonly number[]): CachedSession => {
    let best: CachedSession | undefined;
    for (const cached of sessions) {
      const tokens = cached.session.cached;
      if (
        cached.busy ||
        tokens.length >= prompt.length ||
        (best !== undefined && tokens.length <= best.session.cached.length)
      )
        continue;
      if (tokens.every((token, i) => prompt[i] === token)) best = cached;
    }
    if (best === undefined) {
      const idle = sessions.filter((cached) => !cached.busy).sort((a, b) => a.used - b.used);
      if (sessions.length >= cacheSessions && idle[0] !== undefined) {
        idle[0].session.close();
        sessions.splice(sessions.indexOf(idle[0]), 1);
      }
      best = { session: model.openSession(), busy: false, used: 0 };
      sessions.push(best);
    }
    best.busy = true;
    best.used = ++clock;
    return best;
  };

  const drain = async (): Promise<void> => {
    running = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, 64);
      const cached = batch.map((item) => sessionFor(item.prompt));
      try {
        const groups = new Map<string, number[]>();
        batch.forEach((item, i) => {
          const key = JSON.stringify([item.job.maxTokens, item.job.temperature, item.job.topP, item.job.stop]);
          groups.set(key, [...(groups.get(key) ?? []), i]);
        });
        for (const indices of groups.values()) {
          const { job } = batch[indices[0] as number] as Queued;
          const settings = {
            maxNewTokens: job.maxTokens,
            temperature: job.temperature,
            topP: job.topP,
            stopTokens: [...job.stop],
          };
          const generated = await model.sample(
            indices.map((i) => (batch[i] as Queued).prompt),
            {
              ...settings,
              seeds: indices.map((i) => (batch[i] as Queued).seed),
              sessions: indices.map((i) => cached[i]?.session),
            },
          );
          indices.forEach((i, j) => {
            const result = generated[j]!;
            (batch[i] as Queued).resolve({
              tokens: result.tokens,
              logprobs: result.logprobs,
              stop_reason: result.finish === "stop" ? "stop" : "length",
            });
          });
        }
      } catch (error) {
        for (const item of batch) item.reject(error);
      } finally {
        for (const session of cached) session.busy = false;
      }
    }
    running = false;
  };

  return {
    model,
    owned,
    async sample(prompt, job) {
      // A prompt that fills the context (the KL reference scoring a full sequence) gets its prompt log-probs and
      // no new token, stopped for length: the tiny model cannot place a token past its context, where vLLM
      // samples one from the last position and stops. Longer prompts are refused.
      const context = model.config.contextLength;
      if (prompt.length > context || (prompt.length === context && !job.promptLogprobs))
        throw new RequestFailure(
          `a prompt of ${prompt.length} tokens leaves no room to sample in a context of ${context}`,
        );
      if (prompt.length === context) {
        const scores = (await model.logprobs([prompt]))[0] as Float32Array;
        return {
          sequences: job.seeds.map(() => ({ tokens: [], logprobs: [], stop_reason: "length" as const })),
          prompt_logprobs: [null, ...Array.from(scores)],
        };
      }
      const sequences = Promise.all(
        job.seeds.map(
          (seed) =>
            new Promise<Sequence>((resolve, reject) => {
              queue.push({ prompt, seed, job, resolve, reject });
              if (!running) setImmediate(() => void (running ? undefined : drain()));
            }),
        ),
      );
      const [sampled, scores] = await Promise.all([
        sequences,
        job.promptLogprobs ? model.logprobs([prompt]) : undefined,
      ]);
      return {
        sequences: sampled,
        ...(scores?.[0] === undefined ? {} : { prompt_logprobs: [null, ...Array.from(scores[0])] }),
      };
    },
    close() {
      for (const cached of sessions) cached.session.close();
      if (owned) model.dispose();
    },
  };
}

/** The seeds of a request's num_samples sequences. */
export function sampleSeeds(seed: number, count: number): number[] {
  return count === 1 ? [seed] : Array.from({ length: count }, (_, j) => deriveSeed(seed, "standin-sample", j));
}
