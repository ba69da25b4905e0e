// A parsed function call: the one internal form for ground-truth strings, prompting-mode model text and
// OpenAI-style tool calls alike.
import type { PyValue } from "../py/value.js";

export interface Call {
  /** Function name as written (dotted names are kept whole). */
  readonly name: string;
  readonly args: readonly PyValue[];
  readonly kwargs: readonly (readonly [string, PyValue])[];
}

/** Verdict of parsing text that should hold calls: data, not an exception. */
export type ParseVerdict =
  | { readonly valid: true; readonly calls: readonly Call[] }
  | {
      readonly valid: false;
      readonly errorType: "call_parse:syntax";
      readonly message: string;
      readonly position: number;
    };
