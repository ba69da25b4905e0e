// PostgreSQL faults as errors a user can act on: a server that cannot be reached, a refused login, a missing
// database, a read-only or full server, become one DataError whose single line names the store and the fix.
import { DataError, thrownMessage } from "../../core/errors.js";

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ECONNRESET",
  "EPIPE",
]);

function codeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === "string") return code;
  // Node reports a refused connection to every address of a host as an AggregateError.
  const inner = (error as Error & { errors?: unknown }).errors;
  return Array.isArray(inner) ? codeOf(inner[0]) : undefined;
}

/** True for errors a PostgreSQL server sent (they carry a severity and an SQLSTATE code). */
export function isPostgresServerError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && (error as { severity?: unknown }).severity !== undefined && /^[0-9A-Z]{5}$/.test(code);
}

/** Messages of the `pg` client when a connection it had goes away (the server stopped, the network broke). */
const LOST =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|terminating connection/i;

/** True for an error that means the server went away (stopped, restarting, unreachable) rather than refused the
 * work: worth trying again once it is back. SQLSTATE class 08 is a connection exception; 57P01-57P03 are a server
 * shutting down (fast or immediate stop) or not accepting connections yet. */
export function isConnectionLoss(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && (UNREACHABLE.has(code) || code.startsWith("08") || /^57P0[123]$/.test(code))) return true;
  return error instanceof Error && LOST.test(error.message);
}

/** True for server errors and for connection failures (the latter only mean PostgreSQL when the store is one). */
export function isPostgresError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && (UNREACHABLE.has(code) || isPostgresServerError(error));
}

/** The one-line message of a PostgreSQL error on the store at `location` (a URL without its password). */
export function postgresFaultMessage(code: string, message: string, location: string): string {
  const store = `run store ${location}`;
  if (UNREACHABLE.has(code))
    return `cannot reach the PostgreSQL server of ${store} (${code}): start it, or check the host and port in --db`;
  if (message.includes("timeout exceeded when trying to connect"))
    return `cannot reach the PostgreSQL server of ${store} (connection timed out): start it, or check the host and port in --db`;
  if (code === "28P01" || code === "28000")
    return `the PostgreSQL server of ${store} refused the login (${message}): check the user in --db and the password (PGPASSWORD or ~/.pgpass)`;
  if (code === "3D000") return `${message} (${store}): create it (createdb NAME) or check the database name in --db`;
  if (code === "25006") return `${store} is read-only (a standby server?): use the primary, or another --db`;
  if (code === "53100")
    return `the disk of the PostgreSQL server of ${store} is full: free some space, then continue with --resume`;
  if (code === "53300")
    return `the PostgreSQL server of ${store} has too many connections: close some, or raise max_connections`;
  if (code === "42501") return `${store}: ${message}: grant the user the rights on this database, or use another --db`;
  if (code.startsWith("57P"))
    return `the PostgreSQL server of ${store} shut down or cancelled the work (${message}): continue with --resume when it is back`;
  return `${store}: ${message} (${code})`;
}

/** The DataError for a PostgreSQL error on the store at `location`, or undefined when `error` is not one. */
export function postgresFault(error: unknown, location: string): DataError | undefined {
  if (!isPostgresError(error)) {
    const message = error instanceof Error ? error.message : "";
    if (message.includes("timeout exceeded when trying to connect"))
      return new DataError(postgresFaultMessage("ETIMEDOUT", message, location));
    return undefined;
  }
  return new DataError(postgresFaultMessage(codeOf(error) as string, thrownMessage(error), location));
}
