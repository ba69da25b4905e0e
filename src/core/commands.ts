// The `budgetrl` command lines that messages print ("continue with: ..."), built in one place so that each works
// exactly as printed: the flags exist, and paths with spaces or shell characters are quoted. What an eval's resume
// command needs beyond its store and run (the BullMQ queue, how an openai policy reaches its server) is given by
// `evalResumeFlags` (eval/run-options.ts), from the same tables as the flags.

const PLAIN = /^[\w@%+=:,./-]+$/;

/** A word as a POSIX shell reads it back: as is when safe, else in single quotes. */
export function shellWord(text: string): string {
  return PLAIN.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Continue (or retry the policy errors of) an eval run; `extra`: more flags it needs (the executor's). */
export function evalResumeCommand(run: string, db: string, extra: readonly string[] = []): string {
  return [`budgetrl eval --resume --run ${shellWord(run)} --db ${shellWord(db)}`, ...extra.map(shellWord)].join(" ");
}

/** Continue a training run from its newest checkpoint. */
export function trainResumeCommand(out: string): string {
  return `budgetrl train --out ${shellWord(out)} --resume`;
}

/** Continue an SFT run (its demonstrations, then the training). */
export function sftResumeCommand(out: string): string {
  return `budgetrl sft --out ${shellWord(out)} --resume`;
}
