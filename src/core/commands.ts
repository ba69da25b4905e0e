// The `budgetrl` command lines that messages print ("continue with: ..."), built in one place so that each works
// exactly as printed: the flags exist, paths with spaces or shell characters are quoted, and an eval's resume
// command carries what the run cannot do without but never stores (the BullMQ queue, how an openai policy
// reaches its server), with no password or API key in it.
import { withoutPassword } from "./url-location.js";

const PLAIN = /^[\w@%+=:,./-]+$/;

/** A word as a POSIX shell reads it back: as is when safe, else in single quotes. */
export function shellWord(text: string): string {
  return PLAIN.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Continue (or retry the policy errors of) an eval run; `extra`: more flags it needs (the executor's). */
export function evalResumeCommand(run: string, db: string, extra: readonly string[] = []): string {
  return [`budgetrl eval --resume --run ${shellWord(run)} --db ${shellWord(db)}`, ...extra.map(shellWord)].join(" ");
}

/** What an eval was given, beyond its stored config, to reach its executor and its model server: the `budgetrl
 * eval` flags of the same names (run options and openai client flags). */
export interface EvalReach {
  readonly executor?: string | undefined;
  readonly redis?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly apiKeyEnv?: string | undefined;
  readonly requestConcurrency?: number | undefined;
  readonly rpm?: number | undefined;
  readonly requestTimeout?: number | undefined;
  readonly retries?: number | undefined;
  readonly retryBackoff?: number | undefined;
  readonly retryMaxWait?: number | undefined;
  readonly cache?: string | undefined;
  readonly noCache?: boolean | undefined;
}

/** The flags an eval's resume command needs to work as printed: the BullMQ queue, and every openai client flag
 * given (the API key's variable by name, never the key; URLs without their password). */
export function evalResumeFlags(reach: EvalReach): string[] {
  const flags: string[] = [];
  const add = (flag: string, value: string | number | undefined): void => {
    if (value !== undefined) flags.push(flag, String(value));
  };
  if (reach.executor === "bullmq" && reach.redis !== undefined) flags.push("--executor", "bullmq", "--redis", withoutPassword(reach.redis));
  add("--base-url", reach.baseUrl === undefined ? undefined : withoutPassword(reach.baseUrl));
  add("--api-key-env", reach.apiKeyEnv);
  add("--request-concurrency", reach.requestConcurrency);
  add("--rpm", reach.rpm);
  add("--request-timeout", reach.requestTimeout);
  add("--retries", reach.retries);
  add("--retry-backoff", reach.retryBackoff);
  add("--retry-max-wait", reach.retryMaxWait);
  add("--cache", reach.cache);
  if (reach.noCache === true) flags.push("--no-cache");
  return flags;
}

/** Continue a training run from its newest checkpoint. */
export function trainResumeCommand(out: string): string {
  return `budgetrl train --out ${shellWord(out)} --resume`;
}

/** Continue an SFT run (its demonstrations, then the training). */
export function sftResumeCommand(out: string): string {
  return `budgetrl sft --out ${shellWord(out)} --resume`;
}
