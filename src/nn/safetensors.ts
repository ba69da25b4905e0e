// The safetensors format (https://huggingface.co/docs/safetensors): 8-byte little-endian header length N,
// N bytes of JSON header { name: { dtype, shape, data_offsets: [begin, end] }, "__metadata__": {..} } padded
// with spaces to a multiple of 8, then the raw little-endian tensor bytes. Float32 only (all we write).
// Decoding checks every size and offset, so a truncated or garbled file is refused with its reason.
import { DataError } from "../core/errors.js";

export interface NamedTensor {
  readonly name: string;
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

export interface DecodedSafetensors {
  readonly tensors: ReadonlyMap<string, NamedTensor>;
  readonly metadata: Readonly<Record<string, string>>;
}

export function encodeSafetensors(
  tensors: readonly NamedTensor[],
  metadata: Readonly<Record<string, string>> = {},
): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const t of tensors) {
    const bytes = t.data.length * 4;
    header[t.name] = { dtype: "F32", shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (Buffer.byteLength(json) % 8)) % 8);
  const headerBytes = Buffer.from(json, "utf8");
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let position = 8 + headerBytes.length;
  for (const t of tensors) {
    const data = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    for (let i = 0; i < t.data.length; i++) view.setFloat32(position + 4 * i, data.getFloat32(4 * i, true), true);
    position += t.data.length * 4;
  }
  return out;
}

function fail(source: string, why: string): never {
  throw new DataError(
    `${source}: not a valid safetensors file: ${why}`,
    "the file is truncated or corrupted; restore it from a good copy",
  );
}

interface HeaderEntry {
  dtype: unknown;
  shape: unknown;
  data_offsets: unknown;
}

export function decodeSafetensors(bytes: Uint8Array, source: string): DecodedSafetensors {
  if (bytes.length < 8) fail(source, `${bytes.length} bytes is shorter than the 8-byte header length`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > bytes.length - 8)
    fail(source, `header claims ${headerLength} bytes but the file has ${bytes.length - 8} after the length`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(bytes.subarray(8, 8 + headerLength)).toString("utf8")) as Record<string, unknown>;
  } catch (error: unknown) {
    fail(source, `header is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (header === null || typeof header !== "object" || Array.isArray(header))
    fail(source, "header is not a JSON object");
  const dataStart = 8 + headerLength;
  const dataLength = bytes.length - dataStart;
  const tensors = new Map<string, NamedTensor>();
  let metadata: Record<string, string> = {};
  let end = 0;
  for (const [name, value] of Object.entries(header)) {
    if (name === "__metadata__") {
      metadata = value as Record<string, string>;
      continue;
    }
    const entry = value as HeaderEntry;
    if (entry.dtype !== "F32") fail(source, `tensor ${name} has dtype ${String(entry.dtype)}; only F32 is supported`);
    const shape = entry.shape;
    if (!Array.isArray(shape) || !shape.every((d): d is number => Number.isSafeInteger(d) && d >= 0))
      fail(source, `tensor ${name} has a bad shape`);
    const offsets = entry.data_offsets;
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o)))
      fail(source, `tensor ${name} has bad data_offsets`);
    const [begin, stop] = offsets as [number, number];
    const count = shape.reduce((a, b) => a * b, 1);
    if (stop - begin !== count * 4 || begin < 0)
      fail(source, `tensor ${name}: offsets [${begin}, ${stop}] do not hold shape [${shape.join(", ")}]`);
    if (stop > dataLength)
      fail(source, `tensor ${name} ends at byte ${stop} but the data section has ${dataLength} bytes (truncated?)`);
    const data = new Float32Array(count);
    for (let i = 0; i < count; i++) data[i] = view.getFloat32(dataStart + begin + 4 * i, true);
    tensors.set(name, { name, shape, data });
    end = Math.max(end, stop);
  }
  if (end !== dataLength) fail(source, `data section has ${dataLength} bytes but the tensors use ${end}`);
  return { tensors, metadata };
}
