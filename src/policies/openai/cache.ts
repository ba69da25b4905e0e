// The on-disk response cache: one SQLite file (better-sqlite3, WAL, shared safely by concurrent processes) in
// the cache folder, mapping a key to one sampled choice. The key is the SHA-256 of the canonical JSON of
// (model, request body without seed and n, sample index, seed): a rerun asks the same things and is answered
// from disk, while the K samples of a task, with their own seeds and indices, stay independent. Only good
// answers are stored (never errors, never missing choices); base URL and API key are never part of it.
//
// Folder: --cache DIR, else $BUDGETRL_CACHE_DIR, else $XDG_CACHE_HOME/budgetrl, else ~/.cache/budgetrl.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { DataError } from "../../core/errors.js";
import { canonicalJson, type JsonObject } from "../../core/json.js";
import type { SampledChoice } from "./response.js";

export const CACHE_FILE = "openai-responses.sqlite";

export interface ResponseCache {
  get(key: string): SampledChoice | undefined;
  put(key: string, model: string, choice: SampledChoice): void;
  close(): void;
}

export function defaultCacheDir(environment: NodeJS.ProcessEnv = process.env): string {
  const explicit = environment["BUDGETRL_CACHE_DIR"];
  if (explicit !== undefined && explicit !== "") return explicit;
  const xdg = environment["XDG_CACHE_HOME"];
  return join(xdg !== undefined && xdg !== "" ? xdg : join(homedir(), ".cache"), "budgetrl");
}

export function cacheKey(model: string, request: JsonObject, sample: number, seed: number): string {
  return createHash("sha256").update(canonicalJson({ model, request, sample, seed })).digest("hex");
}

const SCHEMA = "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT NOT NULL, choice TEXT NOT NULL) WITHOUT ROWID";

function openDatabase(dir: string): Database.Database {
  try {
    mkdirSync(dir, { recursive: true });
    const db = new Database(join(dir, CACHE_FILE));
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    throw new DataError(`cannot open the response cache in ${dir}: ${(error as Error).message}`, "pick another folder with --cache DIR, or run without it: --no-cache");
  }
}

export function openResponseCache(dir: string): ResponseCache {
  const db = openDatabase(dir);
  const select = db.prepare("SELECT choice FROM responses WHERE key = ?");
  const insert = db.prepare("INSERT OR REPLACE INTO responses (key, model, choice) VALUES (?, ?, ?)");
  return {
    get(key) {
      const row = select.get(key) as { choice: string } | undefined;
      return row === undefined ? undefined : (JSON.parse(row.choice) as SampledChoice);
    },
    put(key, model, choice) {
      insert.run(key, model, JSON.stringify(choice));
    },
    close: () => db.close(),
  };
}

/** Remove every cached response in `dir` (all models, or one); returns how many were removed. */
export function clearResponseCache(dir: string, model?: string): number {
  if (!existsSync(join(dir, CACHE_FILE))) return 0;
  const db = openDatabase(dir);
  try {
    const result = model === undefined ? db.prepare("DELETE FROM responses").run() : db.prepare("DELETE FROM responses WHERE model = ?").run(model);
    db.exec("VACUUM");
    return result.changes;
  } finally {
    db.close();
  }
}

/** Cached responses in `dir` per model. */
export function cacheSummary(dir: string): { model: string; responses: number }[] {
  if (!existsSync(join(dir, CACHE_FILE))) return [];
  const db = openDatabase(dir);
  try {
    return db.prepare("SELECT model, COUNT(*) AS responses FROM responses GROUP BY model ORDER BY model").all() as { model: string; responses: number }[];
  } finally {
    db.close();
  }
}
