// The stand-in server's protobuf, written apart from the client's (src/tinker/proto.ts uses protobufjs; this
// file reads and writes the wire format by hand), from the Tinker SDK 0.25.0's published message definitions
// (package tinker_public: the field numbers and types listed by src/tinker/proto/tinker_public_pb2.py{,i} at
// commit d595dc2ba62a, re-expressed as the tables below). Strict where the client is lenient: a field number
// the SDK does not define, or a field on the wire with the wrong wire type, is refused with a message naming
// it, so a request with an unknown field fails. Responses are written the way the SDK's server side encodes
// them (SkyRL's proto_serialization.py is the public example): proto3, default values left out, repeated
// numbers packed, map entries as {1: key, 2: value}.
type Scalar = "string" | "bytes" | "int32" | "int64" | "uint32" | "uint64" | "bool" | "enum" | "double" | "float";
type Kind = Scalar | { readonly message: string };

interface FieldSpec {
  readonly name: string;
  readonly kind: Kind;
  readonly repeated?: boolean;
  /** A map<string, kind> field (its entries: 1 key, 2 value). */
  readonly map?: boolean;
}

/** The request-side messages of package tinker_public, by field number. */
const MESSAGES: Readonly<Record<string, Readonly<Record<number, FieldSpec>>>> = {
  ForwardBackwardRequest: {
    1: { name: "model_id", kind: "string" },
    2: { name: "seq_id", kind: "int32" },
    3: { name: "data", kind: { message: "Datum" }, repeated: true },
    4: { name: "loss_fn", kind: "string" },
    5: { name: "loss_fn_config", kind: "double", map: true },
    6: { name: "forward_only", kind: "bool" },
  },
  Datum: {
    1: { name: "model_input", kind: { message: "Chunk" }, repeated: true },
    2: { name: "loss_fn_inputs", kind: { message: "Tensor" }, map: true },
  },
  Chunk: {
    1: { name: "encoded_text", kind: { message: "EncodedTextChunk" } },
    2: { name: "image", kind: { message: "ImageChunk" } },
    3: { name: "dmel", kind: { message: "DmelChunk" } },
  },
  EncodedTextChunk: { 1: { name: "tokens", kind: "bytes" } },
  ImageChunk: {
    1: { name: "data", kind: "bytes" },
    2: { name: "format", kind: "string" },
    3: { name: "expected_tokens", kind: "int32" },
  },
  DmelChunk: { 1: { name: "dmel", kind: "bytes" } },
  Tensor: {
    1: { name: "dense", kind: "bytes" },
    2: { name: "sparse_csr", kind: { message: "SparseCsr" } },
    3: { name: "dtype", kind: "enum" },
    4: { name: "shape", kind: "int64", repeated: true },
  },
  SparseCsr: {
    1: { name: "values", kind: "bytes" },
    2: { name: "crow_indices", kind: "bytes" },
    3: { name: "col_indices", kind: "bytes" },
  },
};

export class ProtoError extends Error {}

const VARINT_KINDS = new Set<Kind>(["int32", "int64", "uint32", "uint64", "bool", "enum"]);

class Reader {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}
  get done(): boolean {
    return this.at >= this.bytes.length;
  }
  varint(): bigint {
    let value = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.at >= this.bytes.length) throw new ProtoError("truncated varint");
      const byte = this.bytes[this.at++] as number;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new ProtoError("varint longer than 10 bytes");
  }
  take(length: number): Uint8Array {
    if (this.at + length > this.bytes.length) throw new ProtoError("truncated length-delimited field");
    const out = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }
}

function scalarFromVarint(kind: Kind, raw: bigint): number | boolean {
  if (kind === "bool") return raw !== 0n;
  if (kind === "int32" || kind === "int64" || kind === "enum") return Number(BigInt.asIntN(64, raw));
  return Number(raw);
}

function readValue(reader: Reader, spec: FieldSpec, wireType: number, where: string): unknown {
  const kind = spec.kind;
  if (typeof kind === "object") {
    if (wireType !== 2) throw new ProtoError(`${where}: wire type ${wireType}, expected a message`);
    return decodeMessage(reader.take(Number(reader.varint())), kind.message, where);
  }
  if (kind === "string" || kind === "bytes") {
    if (wireType !== 2) throw new ProtoError(`${where}: wire type ${wireType}, expected ${kind}`);
    const bytes = reader.take(Number(reader.varint()));
    return kind === "string" ? new TextDecoder("utf-8", { fatal: true }).decode(bytes) : bytes.slice();
  }
  if (kind === "double" || kind === "float") {
    const width = kind === "double" ? 8 : 4;
    if (wireType !== (kind === "double" ? 1 : 5))
      throw new ProtoError(`${where}: wire type ${wireType}, expected ${kind}`);
    const bytes = reader.take(width);
    const view = new DataView(bytes.buffer, bytes.byteOffset, width);
    return kind === "double" ? view.getFloat64(0, true) : view.getFloat32(0, true);
  }
  if (wireType !== 0) throw new ProtoError(`${where}: wire type ${wireType}, expected a varint`);
  return scalarFromVarint(kind, reader.varint());
}

/** A map entry {1: key (string), 2: value}. */
function readMapEntry(bytes: Uint8Array, spec: FieldSpec, where: string): [string, unknown] {
  const reader = new Reader(bytes);
  let key = "";
  let value: unknown = typeof spec.kind === "object" ? {} : 0;
  while (!reader.done) {
    const tag = Number(reader.varint());
    if (tag >>> 3 === 1 && (tag & 7) === 2) key = new TextDecoder().decode(reader.take(Number(reader.varint())));
    else if (tag >>> 3 === 2) value = readValue(reader, { name: "value", kind: spec.kind }, tag & 7, `${where}.value`);
    else throw new ProtoError(`${where}: unknown field ${tag >>> 3} in a map entry`);
  }
  return [key, value];
}

/** `bytes` as message `type` (a plain object by field name), refusing fields the SDK does not define. */
export function decodeMessage(bytes: Uint8Array, type: string, where: string = type): Record<string, unknown> {
  const fields = MESSAGES[type];
  if (fields === undefined) throw new ProtoError(`no message ${type}`);
  const reader = new Reader(bytes);
  const out: Record<string, unknown> = {};
  while (!reader.done) {
    const tag = Number(reader.varint());
    const number = tag >>> 3;
    const wireType = tag & 7;
    const spec = fields[number];
    if (spec === undefined) throw new ProtoError(`${where}: field ${number} is not a field of tinker_public.${type}`);
    const path = `${where}.${spec.name}`;
    if (spec.map === true) {
      if (wireType !== 2) throw new ProtoError(`${path}: wire type ${wireType}, expected a map entry`);
      const [key, value] = readMapEntry(reader.take(Number(reader.varint())), spec, path);
      ((out[spec.name] ??= {}) as Record<string, unknown>)[key] = value;
    } else if (spec.repeated === true && VARINT_KINDS.has(spec.kind) && wireType === 2) {
      const packed = new Reader(reader.take(Number(reader.varint())));
      const list = (out[spec.name] ??= []) as unknown[];
      while (!packed.done) list.push(scalarFromVarint(spec.kind, packed.varint()));
    } else if (spec.repeated === true) {
      ((out[spec.name] ??= []) as unknown[]).push(readValue(reader, spec, wireType, path));
    } else {
      out[spec.name] = readValue(reader, spec, wireType, path);
    }
  }
  return out;
}

// ---- writing responses ----

class Writer {
  readonly parts: number[] = [];
  varint(value: bigint | number): this {
    let rest = BigInt.asUintN(64, BigInt(value));
    do {
      const byte = Number(rest & 0x7fn);
      rest >>= 7n;
      this.parts.push(rest === 0n ? byte : byte | 0x80);
    } while (rest !== 0n);
    return this;
  }
  tag(number: number, wireType: number): this {
    return this.varint((number << 3) | wireType);
  }
  bytes(number: number, bytes: Uint8Array): this {
    this.tag(number, 2).varint(bytes.length);
    for (const byte of bytes) this.parts.push(byte);
    return this;
  }
  string(number: number, text: string): this {
    return text === "" ? this : this.bytes(number, new TextEncoder().encode(text));
  }
  double(number: number, value: number): this {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    this.tag(number, 1);
    for (const byte of bytes) this.parts.push(byte);
    return this;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

const float32Bytes = (values: readonly (number | null)[]): Uint8Array =>
  new Uint8Array(Float32Array.from(values, (value) => value ?? Number.NaN).buffer);
const int32Bytes = (values: readonly number[]): Uint8Array => new Uint8Array(Int32Array.from(values).buffer);

/** One loss output field of every datum as a BatchedTensor (data concatenated, int64 byte offsets). */
function batchedTensor(perDatum: readonly (readonly number[])[], dtype: "float32" | "int64"): Uint8Array {
  const width = dtype === "int64" ? 8 : 4;
  const offsets = new BigInt64Array(perDatum.length + 1);
  perDatum.forEach((values, i) => (offsets[i + 1] = (offsets[i] as bigint) + BigInt(values.length * width)));
  const flat = perDatum.flat();
  const data =
    dtype === "int64" ? new Uint8Array(BigInt64Array.from(flat, (value) => BigInt(value)).buffer) : float32Bytes(flat);
  const writer = new Writer()
    .bytes(1, data)
    .bytes(2, new Uint8Array(offsets.buffer))
    .tag(3, 0)
    .varint(dtype === "int64" ? 2 : 1);
  return writer.finish();
}

export interface JsonForwardBackwardOutput {
  readonly loss_fn_output_type: string;
  readonly loss_fn_outputs: readonly Readonly<
    Record<string, { readonly data: readonly number[]; readonly dtype: "float32" | "int64" }>
  >[];
  readonly metrics: Readonly<Record<string, number>>;
}

/** tinker_public.ForwardBackwardOutput: one ArrayRecord holding every datum. */
export function encodeForwardBackwardOutput(output: JsonForwardBackwardOutput): Uint8Array {
  const writer = new Writer().string(1, output.loss_fn_output_type);
  if (output.loss_fn_outputs.length > 0) {
    const record = new Writer();
    for (const name of Object.keys(output.loss_fn_outputs[0] ?? {})) {
      const tensors = output.loss_fn_outputs.map((datum) => datum[name]);
      const entry = new Writer().string(1, name).bytes(
        2,
        batchedTensor(
          tensors.map((tensor) => tensor?.data ?? []),
          tensors[0]?.dtype ?? "float32",
        ),
      );
      record.bytes(2, entry.finish());
    }
    record.tag(3, 0).varint(output.loss_fn_outputs.length);
    writer.bytes(2, record.finish());
  }
  for (const [key, value] of Object.entries(output.metrics))
    writer.bytes(3, new Writer().string(1, key).double(2, value).finish());
  return writer.finish();
}

export interface JsonSampleOutput {
  readonly sequences: readonly {
    readonly tokens: readonly number[];
    readonly logprobs: readonly number[];
    readonly stop_reason: "stop" | "length";
  }[];
  readonly prompt_logprobs?: readonly (number | null)[];
}

/** tinker_public.SampleResponse (prompt log-probs NaN where there is none). */
export function encodeSampleResponse(output: JsonSampleOutput): Uint8Array {
  const writer = new Writer();
  for (const sequence of output.sequences) {
    const entry = new Writer();
    if (sequence.stop_reason === "length") entry.tag(1, 0).varint(1);
    entry.bytes(2, int32Bytes(sequence.tokens)).bytes(3, float32Bytes(sequence.logprobs));
    writer.bytes(1, entry.finish());
  }
  if (output.prompt_logprobs !== undefined) writer.bytes(2, float32Bytes(output.prompt_logprobs));
  return writer.finish();
}
