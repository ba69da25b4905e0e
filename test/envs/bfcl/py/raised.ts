// Test helper: the "Type: text" of the Python exception a function raises (fails if it raises nothing or a JS error).
import { PyException } from "../../../../src/envs/bfcl/py/errors.js";

export function raised(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PyException) return `${error.pyType}: ${error.text}`;
    throw error;
  }
  throw new Error("expected a Python exception");
}
