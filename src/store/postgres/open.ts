// Opening a PostgreSQL run store: `--db postgres://USER@HOST:PORT/DATABASE` (or postgresql://; the password from
// PGPASSWORD or ~/.pgpass, or in the URL, which is never printed). The database must exist (`createdb NAME`);
// the modes are SQLite's (open.ts): "create" adds the tables to a database without any (under an advisory lock,
// so several processes opening one new store at once add them once), "write" adds the tables and columns added
// within the schema version, "read" only checks, and its connections run every transaction read-only (the server
// refuses a write: `budgetrl view` and the other readers need a user with SELECT alone). A database holding another program's tables is refused, as
// an SQLite file of another program is: budgetrl never adds its tables to it.
import { DataError } from "../../core/errors.js";
import type { WaitListener } from "../../core/wait-notice.js";
import { SCHEMA_MIGRATIONS, SCHEMA_TABLES, SCHEMA_VERSION } from "../schema.js";
import type { SqlConnection } from "../sql.js";
import type { Store, StoreMode } from "../store.js";
import { postgresConnection } from "./connection.js";
import { POSTGRES_SCHEMA_SQL } from "./dialect.js";
import { postgresFault } from "./faults.js";
import { postgresLocation } from "./url.js";

/** An arbitrary constant: the advisory lock taken while tables are added. */
const SCHEMA_LOCK = 7_311_004;

async function tableNames(sql: SqlConnection): Promise<string[]> {
  const rows = await sql.rows<[string]>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name",
  );
  return rows.map(([name]) => name);
}

async function storedVersion(sql: SqlConnection): Promise<string | undefined> {
  const rows = await sql.rows<[string]>("SELECT value FROM meta WHERE key = 'schema_version'");
  return rows[0]?.[0];
}

async function classify(sql: SqlConnection, location: string): Promise<"store" | "empty"> {
  const tables = await tableNames(sql);
  if (tables.length === 0) return "empty";
  if (tables.includes("meta") && (await storedVersion(sql)) !== undefined) return "store";
  const shown = tables.slice(0, 5).join(", ") + (tables.length > 5 ? ", ..." : "");
  throw new DataError(
    `${location} is a PostgreSQL database of another program (tables: ${shown}), not a budgetrl run store; budgetrl will not add its tables to it: use another database in --db`,
  );
}

async function ensureSchema(sql: SqlConnection): Promise<void> {
  const complete = (tables: readonly string[]): boolean => SCHEMA_TABLES.every((table) => tables.includes(table));
  if (complete(await tableNames(sql))) return;
  await sql.transaction(async (tx) => {
    await tx.rows("SELECT pg_advisory_xact_lock(?)", [SCHEMA_LOCK]);
    const tables = (
      await tx.rows<[string]>("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    ).map(([name]) => name);
    if (tables.length > 0 && !tables.includes("meta"))
      throw new DataError("another program created tables in this database while budgetrl was opening it");
    if (complete(tables)) return;
    await tx.run(POSTGRES_SCHEMA_SQL);
    await tx.run("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT DO NOTHING", [
      String(SCHEMA_VERSION),
    ]);
  });
}

async function addMissingColumns(sql: SqlConnection): Promise<void> {
  const columns = new Set(
    (
      await sql.rows<[string, string]>(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()",
      )
    ).map(([table, column]) => `${table}.${column}`),
  );
  const missing = SCHEMA_MIGRATIONS.filter(([table, column]) => !columns.has(`${table}.${column}`));
  if (missing.length === 0) return;
  await sql.transaction(async (tx) => {
    for (const [table, column, , type] of missing)
      await tx.run(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${column} ${type}`);
  });
}

async function prepare(sql: SqlConnection, location: string, mode: StoreMode): Promise<void> {
  const kind = await classify(sql, location);
  if (kind === "empty" && mode !== "create")
    throw new DataError(
      `${location} is not a budgetrl run store (the database has no tables): check the --db URL, or start a run in it`,
    );
  if (mode === "read") return;
  await ensureSchema(sql);
  const version = await storedVersion(sql);
  if (Number(version) !== SCHEMA_VERSION)
    throw new DataError(
      `run store ${location} has schema version ${version}; this budgetrl reads version ${SCHEMA_VERSION}: use a matching budgetrl, or another --db`,
    );
  await addMissingColumns(sql);
}

export interface PostgresStoreOptions {
  readonly mode: StoreMode;
  readonly poolSize?: number;
  /** How long a server lost mid-run is waited for (ms; connection.ts). */
  readonly reconnectMs: number;
  /** Ends that wait at once. */
  readonly signal?: AbortSignal;
  /** Told when that wait lasted a second (connection.ts). */
  readonly onWait?: WaitListener;
}

export async function openPostgresStore(url: string, options: PostgresStoreOptions): Promise<Store> {
  const location = postgresLocation(url);
  const sql = postgresConnection({
    url,
    location,
    reconnectMs: options.reconnectMs,
    ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onWait === undefined ? {} : { onWait: options.onWait }),
    onIdleError: () => undefined,
    readOnly: options.mode === "read",
  });
  try {
    await prepare(sql, location, options.mode);
  } catch (error) {
    await sql.close().catch(() => undefined);
    if (error instanceof DataError) throw error;
    throw postgresFault(error, location) ?? error;
  }
  return { backend: "postgres", location, sql, close: () => sql.close() };
}
