// Python exceptions raised by the BFCL backends. Upstream catches every exception of a call and shows the model
// "Error during execution: " + str(exception); str() of most exceptions is their message, of a KeyError the
// repr of the key. Backends throw PyException; anything else thrown is a bug in our code, not model input.
import { pyRepr } from "./format.js";
import type { PyValue } from "./value.js";

export class PyException extends Error {
  /** Python exception class name, e.g. "ValueError". */
  readonly pyType: string;
  /** str(exception): what upstream shows after "Error during execution: ". */
  readonly text: string;
  constructor(pyType: string, text: string) {
    super(`${pyType}: ${text}`);
    this.name = "PyException";
    this.pyType = pyType;
    this.text = text;
  }
}

export function pyRaise(pyType: string, text: string): never {
  throw new PyException(pyType, text);
}

/** KeyError(key): str() of it is repr(key). */
export function keyError(key: PyValue): PyException {
  return new PyException("KeyError", pyRepr(key));
}

/** The observation upstream produces for an exception raised by a call. */
export function executionErrorText(error: PyException): string {
  return `Error during execution: ${error.text}`;
}
