// The held-out set a run leaves out (config field `exclude`, flag --exclude), declared once for eval, sft and
// train, and the file that names one (held-out.json, which `budgetrl reproduce` writes in its out folder).
// Library calls pass the set, {seed, tasks, by?}; the command line passes text, read once here:
//   SEED:TASKS       e.g. 7:200: the first 200 distinct tasks generated from seed 7 (by content)
//   SEED:TASKS:BY    e.g. 7:200:structure: the first 200 tasks of distinct structures, every task of whose
//                    structures is held out (BY is content or structure)
//   PATH             a held-out.json ({"seed": 7, "tasks": 200, "by": "structure", "ids": [...]}: its seed, count and
//                    by are read; a file without "by" is by content), or the folder that holds one (a study's --out)
// The stored config holds {seed, tasks} for a set by content (as before sets could be by structure) and
// {seed, tasks, by: "structure"} otherwise, so a stored config reads back to the same set and never reads the file
// again; one stored without "by" is by content.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { DEFAULT_TASK_DISTINCTION, TASK_DISTINCTIONS, type HeldOutSet } from "../agent/task-draws.js";
import { thrownMessage } from "../core/errors.js";

export const HELD_OUT_FILE = "held-out.json";

const heldOutSetSchema = z.object({
  seed: z.number().int().min(0),
  tasks: z.number().int().min(1).max(1_000_000),
  by: z.enum(TASK_DISTINCTIONS).default(DEFAULT_TASK_DISTINCTION),
});

/** The text of a held-out.json: the set and its task ids, in the order they were drawn. */
export function heldOutFileText(set: HeldOutSet, ids: readonly string[]): string {
  return `${JSON.stringify({ seed: set.seed, tasks: set.tasks, by: set.by ?? DEFAULT_TASK_DISTINCTION, ids }, null, 2)}\n`;
}

/** What a text names: a set to validate, or what is wrong with the text. */
type ReadSet = { readonly set: unknown } | { readonly problem: string };

/** The held-out.json that `path` names (the file, or the folder holding it). */
function readHeldOutFile(path: string): ReadSet {
  let file = path;
  let json: unknown;
  try {
    if (statSync(path).isDirectory()) file = join(path, HELD_OUT_FILE);
    json = JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError)
      return {
        problem: `${file} is not JSON (${error.message}); expected a held-out.json as budgetrl reproduce writes it`,
      };
    return {
      problem: `"${path}" is neither SEED:TASKS (e.g. 7:200) nor a held-out.json that can be read (${(error as NodeJS.ErrnoException).code ?? thrownMessage(error)})`,
    };
  }
  const shape = z.object({ seed: z.number(), tasks: z.number(), by: z.unknown().optional() }).safeParse(json);
  return shape.success
    ? {
        set: {
          seed: shape.data.seed,
          tasks: shape.data.tasks,
          ...(shape.data.by === undefined ? {} : { by: shape.data.by }),
        },
      }
    : {
        problem: `${file} is not a held-out set: expected {"seed": n, "tasks": n, ...} as budgetrl reproduce writes it`,
      };
}

/** The set a text names: SEED:TASKS[:BY], or a held-out.json (or its folder). */
export function readHeldOutText(text: string): ReadSet {
  const trimmed = text.trim();
  if (!/^[\d\s:]*$/.test(trimmed) && !/^\d[\d\s]*:/.test(trimmed)) return readHeldOutFile(trimmed);
  const match = /^(\d+)\s*:\s*(\d+)(?:\s*:\s*([a-z]+))?$/i.exec(trimmed);
  return match === null
    ? {
        problem: `expected SEED:TASKS, e.g. 7:200 (the first 200 distinct tasks generated from seed 7), SEED:TASKS:structure (the first 200 of distinct structures, every task of their structures held out), or a held-out.json path; got "${text}"`,
      }
    : {
        set: {
          seed: Number(match[1]),
          tasks: Number(match[2]),
          ...(match[3] === undefined ? {} : { by: match[3].toLowerCase() }),
        },
      };
}

/** The `exclude` field: a held-out set as text (the flag) or {seed, tasks, by?} (library calls, stored configs). */
export function heldOutSetField() {
  return z.codec(
    z.union([z.string(), z.looseObject({})], {
      error: "expected SEED:TASKS[:structure], a held-out.json path, or {seed, tasks, by?}",
    }),
    heldOutSetSchema,
    {
      decode: (input, context) => {
        const read = typeof input === "string" ? readHeldOutText(input) : { set: input };
        if ("problem" in read) {
          context.issues.push({ code: "custom", message: read.problem, input });
          return z.NEVER;
        }
        const parsed = heldOutSetSchema.safeParse(read.set);
        if (parsed.success) return parsed.data;
        // Text has no fields of its own to point at: the message names the part (tasks: too big).
        for (const issue of parsed.error.issues) {
          if (typeof input === "string")
            context.issues.push({
              code: "custom",
              message: `in "${input}", ${issue.path.join(".")}: ${issue.message}`,
              input,
            });
          else context.issues.push({ ...issue, input } as z.core.$ZodRawIssue);
        }
        return z.NEVER;
      },
      encode: (set) => ({ seed: set.seed, tasks: set.tasks, ...(set.by === "structure" ? { by: set.by } : {}) }),
    },
  );
}
