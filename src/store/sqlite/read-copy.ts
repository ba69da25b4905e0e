// Reading an SQLite store that lies in a folder nobody may write (`chmod -R a-w`, a read-only mount, results shared
// read-only). A store is in WAL mode, and SQLite reads a WAL database only where its -wal and -shm files exist or
// can be made (its `immutable` URI flag, which would lift that, is off in better-sqlite3's build). When they cannot
// be made, the store is copied (with its -wal, if a writer that died left one, so no committed episode is missed)
// into a fresh folder under the temporary directory, read from there, and the copy is removed on close (a process
// killed meanwhile leaves it in TMPDIR, named budgetrl-read-*). Only commands that read (mode "read") do this; the
// copy is taken again if the file changed while it was copied (a writer that may write the folder after all).
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { DataError, thrownMessage } from "../../core/errors.js";

/** SQLite codes of a read that needs a -wal or -shm file it cannot make (folder not writable, read-only mount). */
export function needsWritableFolder(code: string): boolean {
  return code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN");
}

export interface ReadCopy {
  /** The copy to open (read-only). */
  readonly path: string;
  /** Remove the copy and its folder. */
  remove(): void;
}

const COPY_TRIES = 3;

function fingerprint(path: string): string {
  const stat = statSync(path);
  return `${stat.size}:${stat.mtimeMs}`;
}

/** Copy the store at `path` (and its -wal, when there is one) to a fresh temporary folder. */
export function copyForReading(path: string): ReadCopy {
  const folder = mkdtempSync(join(tmpdir(), "budgetrl-read-"));
  const copy = join(folder, basename(path));
  const remove = (): void => rmSync(folder, { recursive: true, force: true });
  try {
    for (let attempt = 1; ; attempt++) {
      const before = fingerprint(path);
      copyFileSync(path, copy);
      rmSync(`${copy}-wal`, { force: true });
      if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
      if (fingerprint(path) === before) return { path: copy, remove };
      if (attempt === COPY_TRIES)
        throw new DataError(
          `run store ${path} kept changing while it was read from its read-only folder: read it again when its writer is done`,
        );
    }
  } catch (error) {
    remove();
    if (error instanceof DataError) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? thrownMessage(error);
    throw new DataError(
      `run store ${path} is in a folder that cannot be written, so it is read from a copy in ${tmpdir()}, and making that copy failed (${reason}): free some space there, point TMPDIR elsewhere, or copy the store to a writable folder`,
    );
  }
}
