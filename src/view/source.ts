// What a view is over: a run store (an SQLite file, opened read-only, or a postgres:// URL, whose transactions are
// read-only) or a study folder (`budgetrl reproduce --out DIR`: its study.db, with its runs grouped by seed, env and
// model from the study's plan). A folder that holds no study is refused, naming what to give.
import { existsSync, statSync } from "node:fs";
import { DataError } from "../core/errors.js";
import { isStudyFolder, studyFolder, type StudyRunGroup } from "../study/run-groups.js";
import { openStore, type StoreWaitOptions } from "../store/open.js";
import { isPostgresUrl } from "../store/postgres/url.js";
import type { Store } from "../store/store.js";

export interface ViewSource {
  readonly store: Store;
  /** A study's groups, by run name; null for a plain store. */
  readonly groups: ReadonlyMap<string, StudyRunGroup> | null;
  /** What is viewed, as the page's top bar and the command's first line name it. */
  readonly label: string;
}

/** Open `target`: a study folder, an SQLite file or a postgres:// URL, for reading only. */
export async function openViewSource(target: string, waits: StoreWaitOptions = {}): Promise<ViewSource> {
  const isFolder = !isPostgresUrl(target) && existsSync(target) && statSync(target).isDirectory();
  if (isFolder && !isStudyFolder(target))
    throw new DataError(
      `${target} is a folder without a study (no study.json): give a study folder (budgetrl reproduce --out DIR) or a run store (--db FILE)`,
    );
  const study = isFolder ? studyFolder(target) : null;
  if (study !== null && !existsSync(study.db))
    throw new DataError(`the study in ${target} has no evaluations yet (no ${study.db}): view it once its stages ran`);
  const store = await openStore(study?.db ?? target, { mode: "read", ...waits });
  return {
    store,
    groups: study?.groups ?? null,
    label: study === null ? store.location : `study ${target} (${store.location})`,
  };
}
