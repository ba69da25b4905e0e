// The protobuf bodies, byte for byte: the client's forward_backward encoding (protobufjs over our re-expression
// of the SDK's messages) equals the bytes written out here by hand from the protobuf wire format and the SDK's
// field numbers; the stand-in's own decoder (standin-proto.ts, written apart) reads them back and refuses a
// field the SDK does not define, in the body and over HTTP (as it refuses an unknown JSON field); a zstd body
// arrives intact; the results the stand-in writes decode to what it computed. Against the SDK's own bytes
// (sdk-fixtures.ts): the client encodes every fixture request to the bytes the SDK serialised, reads every result to
// what the SDK's reader reads (stripped fields, a missing num_datums, bfloat16), and the stand-in writes the results
// back byte for byte.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decompress } from "fzstd";
import { createTinkerClient } from "../../src/tinker/client.js";
import * as api from "../../src/tinker/operations.js";
import {
  decodeForwardBackwardOutput,
  decodeSampleResponse,
  encodeForwardBackwardRequest,
  PROTOBUF_CONTENT_TYPE,
} from "../../src/tinker/proto.js";
import { modelInput, type LossRequest } from "../../src/tinker/wire.js";
import { fromBase64, SDK_FIXTURES } from "./sdk-fixtures.js";
import {
  decodeMessage,
  encodeForwardBackwardOutput,
  encodeSampleResponse,
  type JsonForwardBackwardOutput,
  type JsonSampleOutput,
} from "./standin-proto.js";
import { startStandin, type Standin } from "./standin-server.js";

// ---- the wire format by hand (https://protobuf.dev/programming-guides/encoding/) ----
const varint = (value: number): number[] => {
  const out: number[] = [];
  for (let rest = value; ; rest = Math.floor(rest / 128)) {
    if (rest < 128) return [...out, rest];
    out.push((rest % 128) | 128);
  }
};
const delimited = (field: number, payload: readonly number[]): number[] => [
  ...varint((field << 3) | 2),
  ...varint(payload.length),
  ...payload,
];
const number = (field: number, value: number): number[] => [...varint(field << 3), ...varint(value)];
const text = (value: string): number[] => [...new TextEncoder().encode(value)];
const littleEndian = (values: readonly number[], width: 4 | 8, float = false): number[] =>
  values.flatMap((value) => {
    const view = new DataView(new ArrayBuffer(width));
    if (width === 8) view.setBigInt64(0, BigInt(value), true);
    else if (float) view.setFloat32(0, value, true);
    else view.setInt32(0, value, true);
    return [...new Uint8Array(view.buffer)];
  });

const request: LossRequest = {
  data: [
    {
      model_input: modelInput([1, 300]),
      loss_fn_inputs: {
        target_tokens: { data: [300, 7], dtype: "int64", shape: [2] },
        weights: { data: [0, 0.5], dtype: "float32", shape: [2] },
      },
    },
  ],
  loss_fn: "cross_entropy",
};

/** ForwardBackwardRequest {model_id "m", seq_id 2, data [Datum], loss_fn, forward_only true}, field by field. */
function expectedBytes(): Uint8Array {
  const tensor = (dense: number[], dtype: number, shape: number[]) => [
    ...delimited(1, dense),
    ...number(3, dtype),
    ...delimited(4, shape.flatMap(varint)),
  ];
  const datum = [
    ...delimited(1, delimited(1, delimited(1, littleEndian([1, 300], 4)))), // model_input: Chunk{encoded_text{tokens}}
    ...delimited(2, [
      ...delimited(1, text("target_tokens")),
      ...delimited(2, tensor(littleEndian([300, 7], 8), 2, [2])),
    ]),
    ...delimited(2, [
      ...delimited(1, text("weights")),
      ...delimited(2, tensor(littleEndian([0, 0.5], 4, true), 1, [2])),
    ]),
  ];
  return Uint8Array.from([
    ...delimited(1, text("m")),
    ...number(2, 2),
    ...delimited(3, datum),
    ...delimited(4, text("cross_entropy")),
    ...number(6, 1),
  ]);
}

let standin: Standin;

beforeAll(async () => {
  standin = await startStandin({
    baseModels: { tiny: { config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 32, contextLength: 32 }, seed: 3 } },
    clientConfig: { proto_compress_fwdbwd: true },
  });
});

afterAll(async () => {
  await standin.close();
});

describe("tinker protobuf", () => {
  it("encodes forward_backward to the bytes of the wire format, which the stand-in's decoder reads back", () => {
    const bytes = encodeForwardBackwardRequest("m", 2, request, true);
    expect(Buffer.from(bytes).toString("hex")).toBe(Buffer.from(expectedBytes()).toString("hex"));
    const decoded = decodeMessage(bytes, "ForwardBackwardRequest");
    expect(decoded).toMatchObject({ model_id: "m", seq_id: 2, loss_fn: "cross_entropy", forward_only: true });
    const datum = (decoded.data as { loss_fn_inputs: Record<string, { dtype: number; shape: number[] }> }[])[0];
    expect(datum?.loss_fn_inputs.target_tokens).toMatchObject({ dtype: 2, shape: [2] });
    // A full pass (forward_only false) leaves the field out, as proto3 does with defaults; a ppo config is a map.
    const full = encodeForwardBackwardRequest(
      "m",
      2,
      { ...request, loss_fn: "ppo", loss_fn_config: { clip_low_threshold: 0.8 } },
      false,
    );
    expect(decodeMessage(full, "ForwardBackwardRequest")).toMatchObject({
      loss_fn: "ppo",
      loss_fn_config: { clip_low_threshold: 0.8 },
    });
    expect(decodeMessage(full, "ForwardBackwardRequest")).not.toHaveProperty("forward_only");
  });

  it("is refused by the stand-in with a field the SDK does not define, at the top or inside a datum", () => {
    const bytes = expectedBytes();
    expect(() => decodeMessage(Uint8Array.from([...bytes, ...number(7, 1)]), "ForwardBackwardRequest")).toThrow(
      /field 7 is not a field of tinker_public.ForwardBackwardRequest/,
    );
    const datum = [...delimited(1, delimited(1, delimited(1, littleEndian([1], 4)))), ...number(9, 3)];
    expect(() => decodeMessage(Uint8Array.from(delimited(3, datum)), "ForwardBackwardRequest")).toThrow(
      /ForwardBackwardRequest.data: field 9 is not a field of tinker_public.Datum/,
    );
    // A known field with the wrong wire type.
    expect(() => decodeMessage(Uint8Array.from(number(1, 5)), "ForwardBackwardRequest")).toThrow(
      /model_id: wire type 0/,
    );
  });

  it("refuses over HTTP a protobuf or a JSON body with an unknown field (422, naming it), and a JSON forward_backward", async () => {
    const post = (path: string, body: Uint8Array | string, contentType: string) =>
      fetch(`${standin.url}${path}`, { method: "POST", headers: { "content-type": contentType }, body });
    const proto = await post(
      "/api/v1/forward_backward",
      Uint8Array.from([...expectedBytes(), ...number(7, 1)]),
      PROTOBUF_CONTENT_TYPE,
    );
    expect(proto.status).toBe(422);
    expect(((await proto.json()) as { detail: string }).detail).toMatch(
      /field 7 is not a field of tinker_public.ForwardBackwardRequest/,
    );
    const session = await post(
      "/api/v1/create_session",
      JSON.stringify({ tags: [], user_metadata: {}, sdk_version: "x", type: "create_session", priority: 1 }),
      "application/json",
    );
    expect(session.status).toBe(422);
    expect(await session.json()).toEqual({
      detail: [{ type: "extra_forbidden", loc: ["body", "priority"], msg: "Extra inputs are not permitted" }],
    });
    const json = await post(
      "/api/v1/forward_backward",
      JSON.stringify({ model_id: "m", seq_id: 1, forward_backward_input: request }),
      "application/json",
    );
    expect(json.status).toBe(415);
    expect((await post("/api/v1/forward", JSON.stringify({}), "application/json")).status).toBe(404);
  });

  it("sends forward_backward zstd-compressed when the config asks, and the stand-in reads the same bytes", async () => {
    const client = createTinkerClient({ baseUrl: standin.url });
    const sessionId = await api.createSession(client, []);
    const modelId = await api.createModel(client, {
      sessionId,
      modelSeqId: 0,
      baseModel: "tiny",
      loraRank: 4,
      seed: 1,
    });
    // The same request on the stand-in's byte vocabulary (ids below 260).
    const small: LossRequest = {
      ...request,
      data: [
        {
          model_input: modelInput([1, 200]),
          loss_fn_inputs: {
            ...request.data[0]?.loss_fn_inputs,
            target_tokens: { data: [200, 7], dtype: "int64", shape: [2] },
          },
        },
      ],
    };
    const output = await api.forwardBackward(client, modelId, 1, small, true);
    expect(output.loss_fn_outputs[0]?.logprobs?.data).toHaveLength(2);
    const sent = standin.requests.filter((entry) => entry.path === "/api/v1/forward_backward").at(-1);
    expect(sent?.headers["content-encoding"]).toBe("zstd");
    expect([...(sent?.raw.subarray(0, 4) ?? [])]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    expect(
      Buffer.from(decompress(sent?.raw ?? Buffer.alloc(0))).equals(
        Buffer.from(encodeForwardBackwardRequest(modelId, 1, small, true)),
      ),
    ).toBe(true);
    expect(sent?.status).toBe(200);
  });

  it("reads the results the stand-in writes: loss outputs per datum, samples, NaN prompt log-probs as null", () => {
    const output = decodeForwardBackwardOutput(
      encodeForwardBackwardOutput({
        loss_fn_output_type: "ArrayRecord",
        loss_fn_outputs: [
          { logprobs: { data: [-1, -2], dtype: "float32" } },
          { logprobs: { data: [-0.5], dtype: "float32" } },
        ],
        metrics: { "loss:sum": 3.5 },
      }),
    );
    expect(output).toEqual({
      loss_fn_outputs: [
        { logprobs: { data: [-1, -2], dtype: "float32", shape: [2] } },
        { logprobs: { data: [-0.5], dtype: "float32", shape: [1] } },
      ],
      metrics: { "loss:sum": 3.5 },
    });
    const sample = decodeSampleResponse(
      encodeSampleResponse({
        sequences: [
          { tokens: [5, 6], logprobs: [-0.25, -1.5], stop_reason: "length" },
          { tokens: [7], logprobs: [-2], stop_reason: "stop" },
        ],
        prompt_logprobs: [null, -0.75],
      }),
    );
    expect(sample).toEqual({
      sequences: [
        { tokens: [5, 6], logprobs: [-0.25, -1.5], stop_reason: "length" },
        { tokens: [7], logprobs: [-2], stop_reason: "stop" },
      ],
      prompt_logprobs: [null, -0.75],
    });
  });

  describe(`against the SDK ${SDK_FIXTURES.sdk.version}'s bytes (commit ${SDK_FIXTURES.sdk.commit})`, () => {
    const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

    it.each(SDK_FIXTURES.forward_backward_requests.map((fixture) => [fixture.name, fixture] as const))(
      "encodes the %s request to the SDK's bytes (map entries sorted), and the stand-in reads the SDK's as ours",
      (_name, fixture) => {
        const { model_id, seq_id, forward_only, ...input } = fixture.request;
        const ours = new Uint8Array(encodeForwardBackwardRequest(model_id, seq_id, input, forward_only));
        // The SDK's deterministic serialisation, byte for byte; what it POSTs has the same fields, its map entries in
        // its hash table's order (they differ from datum to datum), and decodes to the same message.
        expect(hex(ours)).toBe(hex(fromBase64(fixture.deterministic)));
        expect(decodeMessage(fromBase64(fixture.bytes), "ForwardBackwardRequest")).toEqual(
          decodeMessage(ours, "ForwardBackwardRequest"),
        );
        expect(fromBase64(fixture.bytes).length).toBe(ours.length);
      },
    );

    it.each(SDK_FIXTURES.results.map((fixture) => [fixture.name, fixture] as const))(
      "reads the %s as the SDK's reader does",
      (_name, fixture) => {
        const bytes = fromBase64(fixture.bytes);
        const decoded = fixture.kind === "sample" ? decodeSampleResponse(bytes) : decodeForwardBackwardOutput(bytes);
        expect(decoded).toEqual(fixture.sdk_decoded);
      },
    );

    it("writes the results back, byte for byte, with the stand-in's encoder (the service side, written apart)", () => {
      for (const name of ["forward_backward result", "forward_backward result, fields stripped", "sample result"]) {
        const fixture = SDK_FIXTURES.results.find((entry) => entry.name === name);
        if (fixture === undefined) throw new Error(`no fixture ${name}`);
        const bytes = fromBase64(fixture.bytes);
        const again =
          fixture.kind === "sample"
            ? encodeSampleResponse(decodeSampleResponse(bytes) as JsonSampleOutput)
            : encodeForwardBackwardOutput({
                loss_fn_output_type: "ArrayRecord",
                ...(decodeForwardBackwardOutput(bytes) as Omit<JsonForwardBackwardOutput, "loss_fn_output_type">),
              });
        expect(hex(again), name).toBe(hex(bytes));
      }
    });
  });
});
