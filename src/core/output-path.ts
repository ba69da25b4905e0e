// Where a command writes (--out of sft, train, reproduce, report, export): a path that cannot take the output is
// refused before any work starts, as a verdict (a sentence, or undefined) that the caller turns into an error
// naming its field, instead of an EEXIST, ENOTDIR, EISDIR or ENOENT from deep inside the command once the work
// is done.
//   folder output  the folder exists, or can be made (mkdir -p): no file stands at it or at any folder above it
//   file output    its folder exists, and no folder stands at it
import { statSync, type Stats } from "node:fs";
import { dirname, resolve } from "node:path";

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Why a folder cannot be made or written at `path` (e.g. a file stands there), or undefined when it can. */
export function folderOutputProblem(path: string): string | undefined {
  if (path.trim() === "") return "is empty: give a folder";
  const here = statOf(path);
  if (here !== undefined) return here.isDirectory() ? undefined : `${path} is a file, not a folder`;
  // The nearest existing folder above: mkdir -p makes the rest, unless a file stands in the way.
  for (let above = dirname(resolve(path)); ; above = dirname(above)) {
    const stats = statOf(above);
    if (stats !== undefined)
      return stats.isDirectory() ? undefined : `cannot make ${path}: ${above} is a file, not a folder`;
    if (dirname(above) === above) return undefined;
  }
}

/** Why a file cannot be written at `path` (its folder is missing, or a folder stands there), or undefined. */
export function fileOutputProblem(path: string): string | undefined {
  if (path.trim() === "") return "is empty: give a file name";
  const folder = dirname(path);
  const above = statOf(folder);
  if (above === undefined) return `the folder ${folder} does not exist: create it first, or write elsewhere`;
  if (!above.isDirectory()) return `${folder} is a file, not a folder`;
  if (statOf(path)?.isDirectory() === true) return `${path} is a folder: give a file name`;
  return undefined;
}
