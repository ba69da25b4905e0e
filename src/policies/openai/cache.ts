// The on-disk response cache: one SQLite file (better-sqlite3, WAL, shared safely by concurrent processes) in
// the cache folder, mapping a key to one sampled choice. The key is a SHA-256 over (model, canonical JSON of the
// request body without seed and n, sample index, seed), the request hashed in parts (tools, each message, the
// rest) so that parts repeated from call to call are written once: a rerun asks the same things and is answered
// from disk, while the K samples of a task, with their own seeds and indices, stay independent. Only good
// answers are stored (never errors, never missing choices); base URL and API key are never part of it.
//
// Folder: --cache DIR, else $BUDGETRL_CACHE_DIR, else $XDG_CACHE_HOME/budgetrl, else ~/.cache/budgetrl.
// better-sqlite3 is loaded when a cache is first opened, not when the policy (or the package) is imported.
import { createHash, type Hash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { DataError, thrownMessage } from "../../core/errors.js";
import { canonicalJson, type Json, type JsonObject } from "../../core/json.js";
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

/** A request's identity, hashed once per call: every sample's key continues from it. */
export interface RequestIdentity {
  readonly hash: Hash;
}

/** Hash states of tool lists: about 15 kB of JSON schema per BFCL request, the same array for many calls. */
const toolHashes = new WeakMap<object, Hash>();
/** Canonical texts of messages: a conversation's messages are the same objects from turn to turn. */
const messageTexts = new WeakMap<object, string>();

function messageText(message: Json): string {
  if (message === null || typeof message !== "object") return canonicalJson(message);
  let text = messageTexts.get(message);
  if (text === undefined) messageTexts.set(message, (text = canonicalJson(message)));
  return text;
}

/** The identity of (model, canonical request JSON): the canonical texts of the tools, of each message, of the
 * rest of the body, and of the model, in that order (JSON text has no raw newline, so the parts cannot blur). */
export function requestIdentity(model: string, request: JsonObject): RequestIdentity {
  const tools = request["tools"];
  let hash: Hash;
  if (tools !== undefined && tools !== null && typeof tools === "object") {
    let toolsHash = toolHashes.get(tools);
    if (toolsHash === undefined) toolHashes.set(tools, (toolsHash = createHash("sha256").update(canonicalJson(tools))));
    hash = toolsHash.copy();
  } else hash = createHash("sha256").update("null");
  const messages = request["messages"];
  hash.update("\n");
  if (Array.isArray(messages))
    for (const message of messages as readonly Json[]) hash.update(messageText(message)).update(",");
  else hash.update(canonicalJson(messages));
  return {
    hash: hash
      .update("\n")
      .update(canonicalJson({ ...request, tools: null, messages: null }))
      .update("\n")
      .update(JSON.stringify(model)),
  };
}

/** The cache key of one sample: (model, canonical request JSON, sample index, seed) as a SHA-256 hex digest. */
export function cacheKey(identity: RequestIdentity, sample: number, seed: number): string {
  return identity.hash.copy().update(`\n${sample}\n${seed}`).digest("hex");
}

const SCHEMA =
  "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT NOT NULL, choice TEXT NOT NULL) WITHOUT ROWID";

function openDatabase(dir: string): Database.Database {
  try {
    mkdirSync(dir, { recursive: true });
    const Sqlite = createRequire(import.meta.url)("better-sqlite3") as typeof Database;
    const db = new Sqlite(join(dir, CACHE_FILE));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("busy_timeout = 10000");
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    throw new DataError(
      `cannot open the response cache in ${dir}: ${thrownMessage(error)}`,
      "pick another folder with --cache DIR, or run without it: --no-cache",
    );
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
    const result =
      model === undefined
        ? db.prepare("DELETE FROM responses").run()
        : db.prepare("DELETE FROM responses WHERE model = ?").run(model);
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
    return db.prepare("SELECT model, COUNT(*) AS responses FROM responses GROUP BY model ORDER BY model").all() as {
      model: string;
      responses: number;
    }[];
  } finally {
    db.close();
  }
}
