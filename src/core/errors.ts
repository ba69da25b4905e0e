// Typed errors for programmer and configuration mistakes. Model output never throws: it becomes an
// observation. Every message names what was wrong and, where possible, how to fix it (a hint).

/** The message of something thrown: an Error's message, else the value as text. */
export function thrownMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** The message of an error's deepest cause ("getaddrinfo ENOTFOUND api.openai.com", "connect ECONNREFUSED
 * 127.0.0.1:8000": what fetch's bare "fetch failed" hides); of an AggregateError without one (both addresses of a
 * host refused), its first error's. Undefined when nothing under the error says more. */
export function deepestCause(error: Error): string | undefined {
  let text: string | undefined;
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 8; depth++) {
    const first: unknown = cause instanceof AggregateError ? cause.errors[0] : undefined;
    const own = cause.message !== "" ? cause.message : first instanceof Error ? first.message : "";
    if (own !== "") text = own;
    cause = cause.cause;
  }
  return text;
}

/** The message of something thrown with its deepest cause, when it has one: "fetch failed (connect ECONNREFUSED
 * 127.0.0.1:8000)". */
export function thrownWithCause(thrown: unknown): string {
  const cause = thrown instanceof Error ? deepestCause(thrown) : undefined;
  return cause === undefined ? thrownMessage(thrown) : `${thrownMessage(thrown)} (${cause})`;
}

export class BudgetrlError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  constructor(code: string, message: string, hint?: string) {
    super(hint === undefined ? message : `${message}\nHINT: ${hint}`);
    this.name = "BudgetrlError";
    this.code = code;
    this.hint = hint;
  }
}

/** A bad configuration value: raised before any work starts, naming the field. */
export class ConfigError extends BudgetrlError {
  readonly field: string;
  /** What was wrong, without the field name (schemas report it under their own path). */
  readonly reason: string;
  /** What was wrong, without the field name or the hint. */
  readonly detail: string;
  constructor(field: string, message: string, hint?: string) {
    super("config:invalid", `${field}: ${message}`, hint);
    this.name = "ConfigError";
    this.field = field;
    this.detail = message;
    this.reason = hint === undefined ? message : `${message} (${hint})`;
  }
}

/** A stored artifact (checkpoint, database, task file) that is missing, truncated or corrupted. */
export class DataError extends BudgetrlError {
  constructor(message: string, hint?: string) {
    super("data:invalid", message, hint);
    this.name = "DataError";
  }
}

/** A new run's name already taken in a store: the hint names the command that continues it (the caller adds the
 * flags it was given, see core/commands.ts). */
export class RunExistsError extends DataError {
  constructor(
    readonly run: string,
    readonly location: string,
    resumeCommand: string,
  ) {
    super(
      `run "${run}" already exists in ${location}`,
      `pick another --run name, or continue it with: ${resumeCommand}`,
    );
    this.name = "RunExistsError";
  }
}

/** Work stopped by its AbortSignal (Ctrl-C, SIGTERM): not a failure; what finished is kept and can be resumed. */
export class StoppedError extends BudgetrlError {
  constructor(message = "stopped before the end") {
    super("stopped", message);
    this.name = "StoppedError";
  }
}

/** A service a run needs (its PostgreSQL store, its Redis queue) was lost mid-run and did not come back within the
 * time allowed: what was committed is kept, and the run continues with --resume once the service is back. */
export class ConnectionLostError extends DataError {
  readonly service: "PostgreSQL" | "Redis";
  readonly location: string;
  constructor(service: "PostgreSQL" | "Redis", location: string, waitedMs: number, reason: string) {
    const seconds = Number((waitedMs / 1000).toFixed(1));
    super(
      `lost the connection to ${service} at ${location} and it did not come back within ${seconds} s (${reason.replace(/\s+/g, " ").trim()})`,
    );
    this.name = "ConnectionLostError";
    this.service = service;
    this.location = location;
  }
}
