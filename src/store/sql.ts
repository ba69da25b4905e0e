// The SQL seam of the run store: every query of the store (runs.ts, episodes.ts, analysis-rows.ts, ...) is written
// once, in SQL both backends read, against this interface; the two implementations are SQLite
// (sqlite/connection.ts, better-sqlite3, synchronous underneath) and PostgreSQL (postgres/connection.ts, the `pg`
// client). What differs between the dialects lives in one place per dialect (sqlite/dialect.ts, postgres/dialect.ts):
// the schema's DDL, JSON field access, the newest-run order, table introspection. Parameters are written `?` in
// both; rows come back as arrays (`rows`) or objects (`records`), integers as numbers.
export type SqlValue = string | number | null;

/** An INSERT of rows into `table`: their values are given in `columns` order; `key` is the table's primary key
 * (a subset of `columns`), used to tell which rows were new. */
export interface InsertStatement {
  readonly table: string;
  readonly columns: readonly string[];
  readonly key: readonly string[];
  /** On a row whose key is stored: keep the stored one ("nothing"), or overwrite the other columns ("update"). */
  readonly onConflict: "nothing" | "update";
}

export interface SqlQueries {
  /** The rows of a query, each an array of its column values in order. */
  rows<Row extends readonly unknown[] = unknown[]>(text: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** The rows of a query, each an object by column name. */
  records<Row extends object = Record<string, unknown>>(text: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Run a statement; the number of rows it changed. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>;
  /** Insert rows (in chunks where the backend takes many rows per statement). */
  insertRows(statement: InsertStatement, rows: readonly (readonly SqlValue[])[]): Promise<void>;
  /** Insert rows whose key is not stored yet (onConflict "nothing"); for each row, whether it was inserted. */
  insertNewRows(statement: InsertStatement, rows: readonly (readonly SqlValue[])[]): Promise<boolean[]>;
}

export interface SqlConnection extends SqlQueries {
  readonly dialect: Dialect;
  /** Run `work` in one transaction that takes the write lock first (SQLite: BEGIN IMMEDIATE); it commits when
   * `work` resolves and rolls back when it throws. Other statements on this connection wait for it. */
  transaction<T>(work: (tx: SqlQueries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The SQL that differs between backends, besides the schema (see sqlite/dialect.ts, postgres/dialect.ts). */
export interface Dialect {
  readonly name: "sqlite" | "postgres";
  /** An expression giving 1, 0 or NULL from a boolean field of a JSON text column. */
  jsonFlag(column: string, field: string): string;
  /** ORDER BY terms for runs, most recently created first. */
  readonly newestRunFirst: string;
  /** A query taking one parameter, a table name, with a row when the store has that table. */
  readonly tableExists: string;
}

/** The SQL text of an insert of `count` rows (`?` placeholders), with its conflict clause. */
export function insertText(statement: InsertStatement, count: number, returningKey = false): string {
  const row = `(${statement.columns.map(() => "?").join(", ")})`;
  const values = Array.from({ length: count }, () => row).join(", ");
  const others = statement.columns.filter((column) => !statement.key.includes(column));
  const conflict =
    statement.onConflict === "nothing" || others.length === 0
      ? "ON CONFLICT DO NOTHING"
      : `ON CONFLICT (${statement.key.join(", ")}) DO UPDATE SET ${others.map((column) => `${column} = excluded.${column}`).join(", ")}`;
  return `INSERT INTO ${statement.table} (${statement.columns.join(", ")}) VALUES ${values} ${conflict}${returningKey ? ` RETURNING ${statement.key.join(", ")}` : ""}`;
}

/** The values of a row's key columns, as one string (to match inserted keys with rows). */
export function keyText(statement: InsertStatement, row: readonly unknown[]): string {
  return JSON.stringify(statement.key.map((column) => row[statement.columns.indexOf(column)]));
}
