// The Tinker SDK's own wire bodies (fixtures/sdk-wire/fixtures.json, written by scripts/tinker-wire-fixtures.py from
// the SDK 0.25.0's encoders, request types and result readers; PROVENANCE.md says how): forward_backward requests as
// the SDK serialises them, results laid out with the SDK's protobuf descriptors with what the SDK's reader decodes them
// to, and JSON request bodies as the SDK dumps them. Shared by proto.test.ts and operations.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Datum, TinkerLoss } from "../../src/tinker/wire.js";

export interface SdkForwardBackwardRequest {
  readonly name: string;
  readonly request: {
    readonly model_id: string;
    readonly seq_id: number;
    readonly forward_only: boolean;
    readonly data: Datum[];
    readonly loss_fn: TinkerLoss;
    readonly loss_fn_config?: Record<string, number>;
  };
  /** base64 of SerializeToString(), what the SDK POSTs. */
  readonly bytes: string;
  /** base64 of SerializeToString(deterministic=True): map entries sorted by key. */
  readonly deterministic: string;
}

export interface SdkResult {
  readonly name: string;
  readonly kind: "forward_backward" | "sample";
  readonly bytes: string;
  /** What the SDK's response_conv reads from the bytes (NaN as null). */
  readonly sdk_decoded: unknown;
}

export interface SdkJsonRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

export interface SdkFixtures {
  readonly sdk: { readonly version: string; readonly commit: string };
  readonly producer: Readonly<Record<string, string>>;
  readonly forward_backward_requests: readonly SdkForwardBackwardRequest[];
  readonly results: readonly SdkResult[];
  readonly json_requests: readonly SdkJsonRequest[];
}

export const SDK_FIXTURES = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "sdk-wire", "fixtures.json"), "utf8"),
) as SdkFixtures;

export const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "base64"));
