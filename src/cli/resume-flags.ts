// `--resume` continues a run with its stored config, so the flags that would change it are ignored: say so,
// naming them, instead of silently dropping them (`budgetrl eval --resume --tasks 50` keeps the run's tasks).
import type { CliIo } from "./command.js";

/** Report the given flags that `--resume` ignores: every given field not in `kept`. */
export function reportIgnoredOnResume(
  io: CliIo,
  command: string,
  given: ReadonlyMap<string, string>,
  kept: readonly string[],
): readonly string[] {
  const ignored = [...given].filter(([key]) => !kept.includes(key)).map(([, flag]) => flag);
  if (ignored.length > 0)
    io.stderr(
      `budgetrl ${command}: ${ignored.join(", ")} ignored with --resume: the run continues with its stored settings\n`,
    );
  return ignored;
}
