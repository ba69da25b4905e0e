// The errors `budgetrl serve` answers with, in OpenAI's shape: {"error": {"message", "type", "param", "code"}}
// with the HTTP status OpenAI-compatible servers use, so that clients classify them as they do for vLLM:
//   400 invalid_request_error     malformed JSON, a missing or ill-typed field (param names it), an unsupported
//                                 option, a prompt over the context (code context_length_exceeded)
//   404 not_found_error           an unknown path; an unknown model (code model_not_found)
//   405 invalid_request_error     a method the path does not take (Allow header)
//   413 invalid_request_error     a body over the size limit
//   429 rate_limit_error          the queue of sequences waiting for the model is full (Retry-After)
//   503 service_unavailable       the server is stopping (Retry-After)
//   500 internal_error            the model failed
export interface HttpErrorDetails {
  readonly type?: string;
  readonly param?: string | null;
  readonly code?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A request that gets an error response (status, OpenAI error body, headers). */
export class HttpError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly code: string | null;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, message: string, details: HttpErrorDetails = {}) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.type = details.type ?? defaultType(status);
    this.param = details.param ?? null;
    this.code = details.code ?? null;
    this.headers = details.headers ?? {};
  }
}

/** What a failure answers with: an HttpError as it is, anything else as a 500 "the model failed". */
export function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  return new HttpError(500, `the model failed: ${error instanceof Error ? error.message : String(error)}`);
}

function defaultType(status: number): string {
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status === 503) return "service_unavailable";
  if (status >= 500) return "internal_error";
  return "invalid_request_error";
}

/** 400 for a field of the request (param names it: "messages[2].role"). */
export function badRequest(param: string | null, message: string, code: string | null = null): HttpError {
  return new HttpError(400, param === null ? message : `${param}: ${message}`, { param, code });
}

export function errorBody(error: HttpError): {
  error: { message: string; type: string; param: string | null; code: string | null };
} {
  return { error: { message: error.message, type: error.type, param: error.param, code: error.code } };
}
