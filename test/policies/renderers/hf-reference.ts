// Runs scripts/hf-chat-reference.py, the renderer's outside reference (Python's jinja2 set up as transformers
// sets it up, and a byte-level BPE written in Python from the tokenizer.json format), on a tokenizer folder.
// It needs a python3 with jinja2 and regex: Debian's python3-jinja2 and python3-regex, which .ci/run installs.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import type { Json } from "../../../src/core/json.js";

const SCRIPT = join(import.meta.dirname, "..", "..", "..", "scripts", "hf-chat-reference.py");

export interface ReferenceRender {
  readonly messages: readonly Json[];
  readonly tools?: readonly Json[];
  readonly add_generation_prompt?: boolean;
  readonly options?: Readonly<Record<string, Json>>;
}

export interface ReferenceOutput {
  readonly renders: readonly { readonly text: string; readonly ids: readonly number[] }[];
  readonly texts: readonly { readonly ids: readonly number[] }[];
}

/** The first python3 that has jinja2 and regex; a failing test names the packages when none has. */
export function referencePython(): string {
  for (const python of ["/usr/bin/python3", "python3"]) {
    try {
      execFileSync(python, ["-c", "import jinja2, regex"], { stdio: "ignore" });
      return python;
    } catch {
      // try the next one
    }
  }
  throw new Error(
    "the reference needs a python3 with jinja2 and regex: apt-get install python3-jinja2 python3-regex (.ci/run installs them)",
  );
}

/** The reference's texts and ids of chat-template renders and of plain texts, for the tokenizer files in `dir`. */
export function referenceIds(
  dir: string,
  request: { readonly renders?: readonly ReferenceRender[]; readonly texts?: readonly string[] },
): ReferenceOutput {
  const output = execFileSync(referencePython(), [SCRIPT, dir], {
    input: JSON.stringify(request),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  return JSON.parse(output) as ReferenceOutput;
}
