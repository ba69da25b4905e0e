// The protobuf side of the Tinker API (SDK 0.25.0): the forward_backward request body, and the two results
// the SDK reads as protobuf (Accept: application/x-protobuf on retrieve_future), ForwardBackwardOutput and
// SampleResponse. Everything else stays JSON (wire.ts).
//
// The messages below are our own re-expression of the SDK's published definitions (package tinker_public,
// read from the field list of src/tinker/proto/tinker_public_pb2.py{,i} and the converters
// proto/request_conv.py and proto/response_conv.py at SDK commit d595dc2ba62a; nothing copied), limited to
// the fields budgetrl sends or reads; protobufjs does the wire format. Conventions of the SDK's converters:
//   tokens                      int32 little-endian bytes (EncodedTextChunk.tokens, SampledSequence.tokens)
//   Tensor.dense                the values as float32 or int64 little-endian bytes, dtype DTYPE_FLOAT32 / INT64
//   BatchedTensor               one field of every datum: data concatenated, offsets = int64 byte offsets
//                               (num_datums + 1 of them); a datum's values are data[offsets[i], offsets[i+1])
//   prompt_logprobs, logprobs   float32 bytes; NaN where the server computed none (the first prompt token)
// A response field we do not know is skipped (responses may grow); the stand-in server is strict instead. A result
// whose records lack num_datums counts its data by the offsets of a field, as response_conv.py does; one whose
// fields were stripped (the service may drop the log-probs) has its data and no tensors.
import protobuf from "protobufjs";
import {
  TinkerProtocolError,
  type ForwardBackwardOutput,
  type LossRequest,
  type SampleOutput,
  type TensorData,
} from "./wire.js";
import { thrownMessage } from "../core/errors.js";

const SCHEMA = `
syntax = "proto3";
package tinker_public;

enum DType { DTYPE_UNSPECIFIED = 0; DTYPE_FLOAT32 = 1; DTYPE_INT64 = 2; DTYPE_INT32 = 3; DTYPE_BFLOAT16 = 4; }
enum StopReason { STOP_REASON_STOP = 0; STOP_REASON_LENGTH = 1; }

message EncodedTextChunk { bytes tokens = 1; }
message Chunk { oneof chunk { EncodedTextChunk encoded_text = 1; } }
message Tensor { oneof encoding { bytes dense = 1; } DType dtype = 3; repeated int64 shape = 4; }
message Datum { repeated Chunk model_input = 1; map<string, Tensor> loss_fn_inputs = 2; }
message ForwardBackwardRequest {
  string model_id = 1;
  int32 seq_id = 2;
  repeated Datum data = 3;
  string loss_fn = 4;
  map<string, double> loss_fn_config = 5;
  bool forward_only = 6;
}

message BatchedTensor { bytes data = 1; bytes offsets = 2; DType dtype = 3; repeated int64 trailing_shape = 4; }
message ArrayRecord { string type_tag = 1; map<string, BatchedTensor> fields = 2; int64 num_datums = 3; }
message ForwardBackwardOutput { string loss_fn_output_type = 1; repeated ArrayRecord loss_fn_outputs = 2; map<string, double> metrics = 3; }

message SampledSequence { StopReason stop_reason = 1; bytes tokens = 2; optional bytes logprobs = 3; }
message SampleResponse { repeated SampledSequence sequences = 1; optional bytes prompt_logprobs = 2; int32 prompt_cache_hit_tokens = 4; }
`;

const root = protobuf.parse(SCHEMA, { keepCase: true }).root;
const types = {
  request: root.lookupType("tinker_public.ForwardBackwardRequest"),
  output: root.lookupType("tinker_public.ForwardBackwardOutput"),
  sample: root.lookupType("tinker_public.SampleResponse"),
};

export const PROTOBUF_CONTENT_TYPE = "application/x-protobuf";

const DTYPE = { float32: 1, int64: 2 } as const;

function int32Bytes(values: readonly number[]): Uint8Array {
  const view = new DataView(new ArrayBuffer(values.length * 4));
  values.forEach((value, i) => view.setInt32(i * 4, value, true));
  return new Uint8Array(view.buffer);
}

function tensorBytes(tensor: TensorData): Uint8Array {
  const width = tensor.dtype === "int64" ? 8 : 4;
  const view = new DataView(new ArrayBuffer(tensor.data.length * width));
  tensor.data.forEach((value, i) =>
    tensor.dtype === "int64" ? view.setBigInt64(i * 8, BigInt(value), true) : view.setFloat32(i * 4, value, true),
  );
  return new Uint8Array(view.buffer);
}

/** Map entries sorted by key: protobuf's deterministic serialisation. */
const sortedEntries = <T>(record: Readonly<Record<string, T>>): [string, T][] =>
  Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The forward_backward body as the SDK sends it: proto3, fields at their defaults left out, map entries sorted by key
 * (the SDK's SerializeToString(deterministic=True); its default order is its hash table's, which varies). */
export function encodeForwardBackwardRequest(
  modelId: string,
  seqId: number,
  input: LossRequest,
  forwardOnly: boolean,
): Uint8Array {
  const message = {
    model_id: modelId,
    seq_id: seqId,
    data: input.data.map((datum) => ({
      model_input: datum.model_input.chunks.map((chunk) => ({ encoded_text: { tokens: int32Bytes(chunk.tokens) } })),
      loss_fn_inputs: Object.fromEntries(
        sortedEntries(datum.loss_fn_inputs).map(([name, tensor]) => [
          name,
          { dense: tensorBytes(tensor), dtype: DTYPE[tensor.dtype], shape: [...tensor.shape] },
        ]),
      ),
    })),
    loss_fn: input.loss_fn,
    ...(input.loss_fn_config === undefined
      ? {}
      : { loss_fn_config: Object.fromEntries(sortedEntries(input.loss_fn_config)) }),
    ...(forwardOnly ? { forward_only: true } : {}),
  };
  const problem = types.request.verify(message);
  if (problem !== null) throw new TinkerProtocolError(`cannot encode forward_backward: ${problem}`);
  return types.request.encode(types.request.fromObject(message)).finish();
}

/** Little-endian values of `bytes` read as `dtype` (1 float32, 2 int64, 3 int32, 4 bfloat16), as numbers. */
function readValues(bytes: Uint8Array, dtype: number, what: string): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = dtype === 2 ? 8 : dtype === 4 ? 2 : 4;
  if (bytes.byteLength % width !== 0 || ![1, 2, 3, 4].includes(dtype))
    throw new TinkerProtocolError(`${what}: ${bytes.byteLength} bytes of dtype ${dtype}`);
  return Array.from({ length: bytes.byteLength / width }, (_, i) => {
    if (dtype === 1) return view.getFloat32(i * 4, true);
    if (dtype === 2) return Number(view.getBigInt64(i * 8, true));
    if (dtype === 3) return view.getInt32(i * 4, true);
    return new Float32Array(new Uint32Array([view.getUint16(i * 2, true) << 16]).buffer)[0]!;
  });
}

function decoded(type: protobuf.Type, bytes: Uint8Array, what: string): Record<string, unknown> {
  try {
    return type.toObject(type.decode(bytes), { longs: Number, defaults: true }) as Record<string, unknown>;
  } catch (error) {
    throw new TinkerProtocolError(`${what} is not the SDK's protobuf message: ${thrownMessage(error)}`);
  }
}

interface BatchedTensorObject {
  readonly data: Uint8Array;
  readonly offsets: Uint8Array;
  readonly dtype: number;
  readonly trailing_shape: readonly number[];
}

/** A ForwardBackwardOutput read from protobuf, in the JSON result's shape (one record of tensors per datum). */
export function decodeForwardBackwardOutput(bytes: Uint8Array): ForwardBackwardOutput {
  const message = decoded(types.output, bytes, "the forward_backward result");
  const outputs: Record<string, { data: number[]; dtype: string; shape: number[] }>[] = [];
  for (const record of message.loss_fn_outputs as {
    fields: Record<string, BatchedTensorObject>;
    num_datums: number;
  }[]) {
    const fields = Object.entries(record.fields);
    // num_datums counts the data even when the server stripped every field (drop_fwdbwd_logprobs); a record
    // without it (encoded before the field existed) has as many as its first field has offsets, less one.
    const count =
      record.num_datums > 0 || fields[0] === undefined
        ? record.num_datums
        : readValues(fields[0][1].offsets, 2, `${fields[0][0]}.offsets`).length - 1;
    const perDatum: Record<string, { data: number[]; dtype: string; shape: number[] }>[] = Array.from(
      { length: count },
      () => ({}),
    );
    for (const [name, field] of fields) {
      const offsets = readValues(field.offsets, 2, `${name}.offsets`);
      const width = field.dtype === 2 ? 8 : field.dtype === 4 ? 2 : 4;
      const values = readValues(field.data, field.dtype, name);
      if (offsets.length !== count + 1)
        throw new TinkerProtocolError(
          `forward_backward result: ${name} has ${offsets.length} offsets for ${count} data`,
        );
      perDatum.forEach((datum, i) => {
        const data = values.slice(offsets[i]! / width, offsets[i + 1]! / width);
        datum[name] = {
          data,
          dtype: field.dtype === 1 || field.dtype === 4 ? "float32" : "int64",
          shape: [data.length, ...field.trailing_shape],
        };
      });
    }
    outputs.push(...perDatum);
  }
  return { loss_fn_outputs: outputs, metrics: message.metrics as Record<string, number> };
}

/** A SampleResponse read from protobuf, in the JSON result's shape (NaN prompt log-probs as null). */
export function decodeSampleResponse(bytes: Uint8Array): SampleOutput {
  const message = decoded(types.sample, bytes, "the sample result");
  const sequences = (message.sequences as { stop_reason: number; tokens: Uint8Array; logprobs?: Uint8Array }[]).map(
    (sequence) => ({
      tokens: readValues(sequence.tokens, 3, "tokens"),
      logprobs: sequence.logprobs === undefined ? null : readValues(sequence.logprobs, 1, "logprobs"),
      stop_reason: sequence.stop_reason === 1 ? "length" : "stop",
    }),
  );
  const prompt = message.prompt_logprobs as Uint8Array | undefined;
  return {
    sequences,
    prompt_logprobs:
      prompt === undefined
        ? null
        : readValues(prompt, 1, "prompt_logprobs").map((value) => (Number.isNaN(value) ? null : value)),
  };
}
