// The SQL seam (sql.ts) over PostgreSQL's `pg` client: a small pool; `?` placeholders become $1, $2, ... (the
// store's SQL has no other question marks); rows as arrays or objects; 64-bit integers and numerics (COUNT, SUM)
// parsed as JavaScript numbers (every value the store keeps is below 2^53); many rows per INSERT statement, and the
// keys of new rows from RETURNING. A transaction holds one pooled client from BEGIN to COMMIT.
// A server that goes away once the store was reached (stopped, restarting, the network broken) is waited for: a
// statement or transaction that failed for that reason is tried again, with pauses growing to 2 s, for up to
// `reconnectMs` from the loss; then it fails with a ConnectionLostError. Trying a transaction again is safe because
// the store's writes are idempotent (rows keyed, inserted ON CONFLICT, updates that set values), even when the lost
// COMMIT had in fact happened; the one exception, a new run's row, is then refused as "already exists" with the
// command that resumes it (runs.ts). A server never reached fails at once (open.ts says so in one line). A loss that
// lasts a second is announced in one line (wait-notice.ts).
import pg from "pg";
import { ConnectionLostError, thrownMessage } from "../../core/errors.js";
import {
  insertText,
  keyText,
  type InsertStatement,
  type SqlConnection,
  type SqlQueries,
  type SqlValue,
} from "../sql.js";
import { postgresDialect } from "./dialect.js";
import { isConnectionLoss } from "./faults.js";
import { pause } from "../../core/pause.js";
import { secondsText, startWait, type Wait, type WaitListener } from "../../core/wait-notice.js";

const INT8 = 20;
const NUMERIC = 1700;
/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;
const MAX_ROWS_PER_INSERT = 1000;

const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === INT8 || oid === NUMERIC) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

const numbered = new Map<string, string>();
function numberedText(text: string): string {
  let found = numbered.get(text);
  if (found === undefined) {
    let n = 0;
    found = text.replace(/\?/g, () => `$${++n}`);
    if (numbered.size < 10_000) numbered.set(text, found);
  }
  return found;
}

type Queryable = pg.Pool | pg.PoolClient;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function queriesOn(target: Queryable): SqlQueries {
  const query = (text: string, params: readonly SqlValue[], rowMode?: "array") =>
    target.query({
      text: numberedText(text),
      values: params as SqlValue[],
      ...(rowMode === undefined ? {} : { rowMode }),
    });
  const rowsPerStatement = (insert: InsertStatement): number =>
    Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS / insert.columns.length)));
  return {
    rows: async <Row extends readonly unknown[]>(text: string, params: readonly SqlValue[] = []) =>
      (await query(text, params, "array")).rows as unknown as Row[],
    records: async <Row extends object>(text: string, params: readonly SqlValue[] = []) =>
      (await query(text, params)).rows as Row[],
    run: async (text, params = []) => (await query(text, params)).rowCount ?? 0,
    insertRows: async (insert, rows) => {
      for (const chunk of chunks(rows, rowsPerStatement(insert)))
        await query(insertText(insert, chunk.length), chunk.flat());
    },
    insertNewRows: async (insert, rows) => {
      const inserted = new Set<string>();
      for (const chunk of chunks(rows, rowsPerStatement(insert))) {
        const result = await query(insertText(insert, chunk.length, true), chunk.flat(), "array");
        for (const key of result.rows as unknown as unknown[][]) inserted.add(JSON.stringify(key));
      }
      // A key given twice is inserted once, by its first row (as in SQLite, row by row).
      return rows.map((row) => inserted.delete(keyText(insert, row)));
    },
  };
}

export interface PostgresConnectionOptions {
  readonly url: string;
  /** Connections in the pool (default 4). */
  readonly poolSize?: number;
  /** Called with errors of idle pooled connections (a server restart), which would otherwise crash the process. */
  readonly onIdleError?: (error: Error) => void;
  /** How long a lost server is waited for (ms; default 0: not at all). */
  readonly reconnectMs?: number;
  /** Where the store is, as the ConnectionLostError names it (the URL without its password). */
  readonly location?: string;
  /** Ends a wait for a lost server at once (the run is being stopped). */
  readonly signal?: AbortSignal;
  /** Told, once a lost server was waited for a second, what is waited for and for how long at most. */
  readonly onWait?: WaitListener;
  /** Every transaction read-only (the server refuses a write): a store opened for reading. */
  readonly readOnly?: boolean;
}

const MAX_RETRY_PAUSE_MS = 2000;

/** Runs attempts of work on the server, trying again while a server that was reached is lost (see the header). */
function reconnecting(options: PostgresConnectionOptions): <T>(attempt: () => Promise<T>) => Promise<T> {
  const reconnectMs = options.reconnectMs ?? 0;
  let reached = false;
  const location = options.location ?? "(the run store)";
  // One wait for all the statements cut by one loss: announced once, over when any of them gets through.
  let wait: Wait | undefined;
  const over = (): void => {
    wait?.end();
    wait = undefined;
  };
  return async (attempt) => {
    let lostAt: number | undefined;
    for (let tries = 0; ; tries++) {
      try {
        const result = await attempt();
        reached = true;
        over();
        return result;
      } catch (error) {
        if (!reached || !isConnectionLoss(error)) {
          over();
          throw error;
        }
        lostAt ??= performance.now();
        const left = lostAt + reconnectMs - performance.now();
        if (left <= 0 || options.signal?.aborted === true) {
          over();
          throw new ConnectionLostError("PostgreSQL", location, performance.now() - lostAt, thrownMessage(error));
        }
        const reason = thrownMessage(error).replace(/\s+/g, " ").trim();
        wait ??= startWait(
          options.onWait,
          () =>
            `lost the connection to PostgreSQL at ${location} (${reason}); trying again for up to ${secondsText(reconnectMs)} in all (--reconnect-timeout), then giving up`,
        );
        await pause(Math.min(left, MAX_RETRY_PAUSE_MS, 100 * 2 ** tries), options.signal);
      }
    }
  };
}

/** The URL with the server options that make every transaction read-only added to its own (the URL's options win
 * over the client's, so they go into it). */
function readOnlyUrl(url: string): string {
  const parsed = new URL(url);
  const own = parsed.searchParams.get("options");
  parsed.searchParams.set("options", `${own === null ? "" : `${own} `}-c default_transaction_read_only=on`);
  return parsed.toString();
}

export function postgresConnection(options: PostgresConnectionOptions): SqlConnection {
  const pool = new pg.Pool({
    connectionString: options.readOnly === true ? readOnlyUrl(options.url) : options.url,
    max: options.poolSize ?? 4,
    types,
    connectionTimeoutMillis: 10_000,
  });
  pool.on("error", (error) => options.onIdleError?.(error));
  const direct = queriesOn(pool);
  const retrying = reconnecting(options);
  const transaction = <T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> => retrying(() => transactionOnce(work));
  return {
    dialect: postgresDialect,
    rows: (text, params) => retrying(() => direct.rows(text, params)),
    records: (text, params) => retrying(() => direct.records(text, params)),
    run: (text, params) => retrying(() => direct.run(text, params)),
    // Many-row inserts run as one transaction, as in SQLite.
    insertRows: (insert, rows) => transaction((tx) => tx.insertRows(insert, rows)),
    insertNewRows: (insert, rows) => transaction((tx) => tx.insertNewRows(insert, rows)),
    transaction,
    close: () => pool.end(),
  };
  async function transactionOnce<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // A checked-out client whose server goes away emits an error besides failing its query: without a listener
    // that event would end the process.
    const onLost = (): void => undefined;
    client.on("error", onLost);
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await work(queriesOn(client));
      await client.query("COMMIT");
      return result;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      client.off("error", onLost);
      client.release(broken);
    }
  }
}
