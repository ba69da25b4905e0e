// Opening the SQLite run store (better-sqlite3 12.x). WAL journal with synchronous=NORMAL: a process killed at
// any moment (kill -9) loses at most the transaction in flight, never a committed episode, and never leaves a
// half-written one (an episode and its turns commit together). Columns added within the current schema version
// (SCHEMA_MIGRATIONS) are added to older stores when they are opened for writing.
import Database from "better-sqlite3";
import { DataError } from "../core/errors.js";
import { SCHEMA_MIGRATIONS, SCHEMA_SQL, SCHEMA_VERSION } from "./schema.js";

export type Db = Database.Database;

export interface Store {
  readonly db: Db;
  readonly path: string;
  close(): void;
}

/** Columns added within the current schema version, added to stores made before them. */
function addMissingColumns(db: Db): void {
  for (const [table, column, type] of SCHEMA_MIGRATIONS) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
    if (!columns.some((existing) => existing.name === column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
  }
}

export function openStore(path: string, options: { readonly readonly?: boolean } = {}): Store {
  let db: Db;
  try {
    db = new Database(path, { readonly: options.readonly === true, fileMustExist: options.readonly === true });
  } catch (error) {
    throw new DataError(`cannot open run store ${path}: ${(error as Error).message}`, options.readonly === true ? "check the --db path; `budgetrl runs --db FILE` lists what a store holds" : undefined);
  }
  try {
    if (options.readonly !== true) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      db.exec(SCHEMA_SQL);
      const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
      if (row === undefined) db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
      else if (Number(row.value) !== SCHEMA_VERSION) throw new DataError(`run store ${path} has schema version ${row.value}; this budgetrl reads version ${SCHEMA_VERSION}`);
      addMissingColumns(db);
    } else {
      db.prepare("SELECT 1 FROM runs LIMIT 1").get();
    }
  } catch (error) {
    db.close();
    if (error instanceof DataError) throw error;
    throw new DataError(`${path} is not a budgetrl run store: ${(error as Error).message}`);
  }
  return { db, path, close: () => db.close() };
}
