// The SQL seam (sql.ts) over better-sqlite3: statements prepared once per text and kept, rows read raw (arrays) or
// as objects, inserts one prepared row at a time (the fastest way into SQLite). better-sqlite3 is synchronous, so
// every promise here is already settled when it is returned; a transaction is BEGIN IMMEDIATE .. COMMIT around
// async work, and the statements of other callers on the connection wait until it ends (they would otherwise land
// inside it).
import type Database from "better-sqlite3";
import { insertText, type InsertStatement, type SqlConnection, type SqlQueries, type SqlValue } from "../sql.js";
import { sqliteDialect } from "./dialect.js";

type Statement = Database.Statement<unknown[], unknown>;

export function sqliteConnection(db: Database.Database): SqlConnection {
  const prepared = new Map<string, Statement>();
  const statement = (text: string): Statement => {
    let found = prepared.get(text);
    if (found === undefined) prepared.set(text, (found = db.prepare(text)));
    return found;
  };
  const direct: SqlQueries = {
    rows: <Row extends readonly unknown[]>(text: string, params: readonly SqlValue[] = []) => Promise.resolve(statement(text).raw(true).all(...params) as Row[]),
    records: <Row extends object>(text: string, params: readonly SqlValue[] = []) => Promise.resolve(statement(text).raw(false).all(...params) as Row[]),
    run: (text, params = []) => Promise.resolve(statement(text).run(...params).changes),
    insertRows: (insert, rows) => {
      const one = statement(insertText(insert, 1));
      for (const row of rows) one.run(...row);
      return Promise.resolve();
    },
    insertNewRows: (insert: InsertStatement, rows) => {
      const one = statement(insertText(insert, 1));
      return Promise.resolve(rows.map((row) => one.run(...row).changes > 0));
    },
  };
  let open: Promise<unknown> | undefined;
  /** Wait for the transaction in progress, if any, then do `work`. */
  const outside = async <T>(work: () => Promise<T>): Promise<T> => {
    while (open !== undefined) await open.catch(() => undefined);
    return work();
  };
  const transaction = <T>(work: (tx: SqlQueries) => Promise<T>): Promise<T> =>
    outside(async () => {
      db.exec("BEGIN IMMEDIATE");
      const running = (async () => {
        try {
          const result = await work(direct);
          db.exec("COMMIT");
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        }
      })();
      open = running;
      try {
        return await running;
      } finally {
        if (open === running) open = undefined;
      }
    });
  return {
    dialect: sqliteDialect,
    rows: (text, params) => (open === undefined ? direct.rows(text, params) : outside(() => direct.rows(text, params))),
    records: (text, params) => (open === undefined ? direct.records(text, params) : outside(() => direct.records(text, params))),
    run: (text, params) => (open === undefined ? direct.run(text, params) : outside(() => direct.run(text, params))),
    insertRows: (insert, rows) => transaction((tx) => tx.insertRows(insert, rows)),
    insertNewRows: (insert, rows) => transaction((tx) => tx.insertNewRows(insert, rows)),
    transaction,
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}
