// JSONL export: one trajectory per line (the episode with its turns), in key order (task index, budget label in byte
// order, sample: the ORDER BY of readEpisodes, whatever order the episodes were stored in), so equal runs export
// byte-identical files: a local run, a BullMQ run and one stopped and resumed, on either backend. Exports never destroy data: a file is written under a temporary name next to it and
// renamed over the target only when complete, so a failure (a damaged store, a full disk, Ctrl-C) leaves an
// existing file untouched. On stdout, a reader that goes away (`| head`, EPIPE) ends the export quietly.
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { DataError, StoppedError, thrownMessage } from "../core/errors.js";
import type { Episode } from "../core/episode.js";
import type { Store } from "./store.js";
import { readEpisodes } from "./episodes.js";
import { getRun, loadTasks } from "./runs.js";

export function episodeToJsonLine(episode: Episode): string {
  return JSON.stringify(episode);
}

/** How a write loop ended: every line written, or the reader closed the pipe after `written` lines. */
interface Written {
  readonly written: number;
  readonly brokenPipe: boolean;
}

const YIELD_EVERY = 256;

function isBrokenPipe(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === "EPIPE";
}

/** Write lines to a stream with back-pressure; lets the event loop run every few hundred lines (signals, errors). */
async function writeLines(
  stream: Writable,
  lines: AsyncIterable<string>,
  signal: AbortSignal | undefined,
): Promise<Written> {
  let failure: unknown;
  const onError = (error: unknown): void => {
    failure ??= error;
  };
  stream.on("error", onError);
  let written = 0;
  try {
    for await (const line of lines) {
      if (!stream.write(line)) await once(stream, "drain");
      written++;
      if (written % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      failure ??= stream.errored ?? (signal?.aborted === true ? new StoppedError("export stopped") : undefined);
      if (failure !== undefined) break;
    }
  } catch (error) {
    failure ??= error;
  } finally {
    stream.off("error", onError);
  }
  if (failure === undefined) return { written, brokenPipe: false };
  if (isBrokenPipe(failure)) return { written, brokenPipe: true };
  throw failure;
}

/** The lines of a run, with a stored episode that cannot be read named in the error. */
async function* runLines(store: Store, runId: string): AsyncGenerator<string> {
  const run = await getRun(store, runId);
  const taskIds = new Map((await loadTasks(store, runId)).map((task) => [task.index, task.id]));
  let count = 0;
  try {
    for await (const episode of readEpisodes(store, runId, run.env, taskIds)) {
      count++;
      yield `${episodeToJsonLine(episode)}\n`;
    }
  } catch (error) {
    if (error instanceof SyntaxError)
      throw new DataError(
        `run "${runId}" in ${store.location} holds a damaged episode (after ${count} readable ones): ${error.message}; the store cannot be exported whole`,
      );
    throw error;
  }
}

async function exportToFile(
  lines: AsyncIterable<string>,
  out: string,
  signal: AbortSignal | undefined,
): Promise<number> {
  const temporary = join(dirname(out), `.${basename(out)}.${process.pid}.tmp`);
  const stream = createWriteStream(temporary, { flags: "wx" });
  try {
    await once(stream, "open");
    const { written } = await writeLines(stream, lines, signal);
    stream.end();
    await once(stream, "finish");
    await rename(temporary, out);
    return written;
  } catch (error) {
    // Writes still pending fail once the stream is destroyed: expected, and moot, since the file is removed.
    stream.on("error", () => undefined);
    if (!stream.closed) {
      const closed = new Promise<void>((resolve) => stream.once("close", () => resolve()));
      stream.destroy();
      await closed;
    }
    await rm(temporary, { force: true });
    if (error instanceof DataError || error instanceof StoppedError) throw error;
    throw new DataError(`cannot write ${out}: ${thrownMessage(error)} (${out} was left as it was)`);
  }
}

/** Write a run's trajectories to `out` (a path, or "-" for stdout). Returns the number of lines written. A signal
 * stops it with a StoppedError (a file target is then left as it was). */
export async function exportRunJsonl(
  store: Store,
  runId: string,
  out: string,
  options: { readonly signal?: AbortSignal } = {},
): Promise<number> {
  await getRun(store, runId);
  const lines = runLines(store, runId);
  if (out !== "-") return exportToFile(lines, out, options.signal);
  return (await writeLines(process.stdout, lines, options.signal)).written;
}
