// The errors `budgetrl serve` answers with, in OpenAI's shape: {"error": {"message", "type", "param", "code"}}
// with the HTTP status OpenAI-compatible servers use, so that clients classify them as they do for vLLM. Every
// error has a code (OpenAI's names where they exist), the status's own when nothing more precise applies:
//   400 invalid_request_error     malformed JSON (invalid_json), a missing or ill-typed field (param names it:
//                                 missing_required_parameter, invalid_type, invalid_value), an unsupported option
//                                 (unsupported_field, unsupported_schema, unsupported_regex, unsupported_grammar),
//                                 a prompt over the context (context_length_exceeded)
//   401 invalid_request_error     no or a wrong API key (invalid_api_key)
//   404 not_found_error           an unknown path (not_found); an unknown model (model_not_found)
//   405 invalid_request_error     a method the path does not take (method_not_allowed; Allow header)
//   413 invalid_request_error     a body over the size limit (request_too_large)
//   417 invalid_request_error     an Expect header other than 100-continue (expectation_failed)
//   429 rate_limit_error          the queue of sequences waiting for the model is full (rate_limit_exceeded;
//                                 Retry-After)
//   503 service_unavailable       the server is stopping (service_unavailable; Retry-After)
//   500 internal_error            the model failed (internal_error)
export interface HttpErrorDetails {
  readonly type?: string;
  readonly param?: string | null;
  readonly code?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The answer is written at once but ends only when this settles (a refused body still arriving, read and
   * dropped, so that a client that asked to close the connection is not cut off while it uploads). */
  readonly settled?: Promise<void>;
}

/** A request that gets an error response (status, OpenAI error body, headers). */
export class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly settled: Promise<void> | undefined;
  constructor(status: number, message: string, details: HttpErrorDetails = {}) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.type = details.type ?? defaultType(status);
    this.param = details.param ?? null;
    this.code = details.code ?? defaultCode(status);
    this.headers = details.headers ?? {};
    this.settled = details.settled;
  }
}

/** What a failure answers with: an HttpError as it is, anything else as a 500 "the model failed". */
export function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  return new HttpError(500, `the model failed: ${error instanceof Error ? error.message : String(error)}`);
}

const CODES: Readonly<Record<number, string>> = {
  400: "invalid_value",
  401: "invalid_api_key",
  404: "not_found",
  405: "method_not_allowed",
  413: "request_too_large",
  417: "expectation_failed",
  429: "rate_limit_exceeded",
  503: "service_unavailable",
};

function defaultCode(status: number): string {
  return CODES[status] ?? (status >= 500 ? "internal_error" : "invalid_request");
}

function defaultType(status: number): string {
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status === 503) return "service_unavailable";
  if (status >= 500) return "internal_error";
  return "invalid_request_error";
}

/** 400 for a field of the request (param names it: "messages[2].role"), with its code (default invalid_value). */
export function badRequest(param: string | null, message: string, code = "invalid_value"): HttpError {
  return new HttpError(400, param === null ? message : `${param}: ${message}`, { param, code });
}

export function errorBody(error: HttpError): {
  error: { message: string; type: string; param: string | null; code: string };
} {
  return { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
}
