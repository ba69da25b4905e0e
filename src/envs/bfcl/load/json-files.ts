// Reading the BFCL data dir: whole JSON files and JSON Lines files (one object per line, despite the .json
// extension), parsed as Python's json.loads would (ints and floats kept apart), with DataErrors that name the
// file and line, plus small shape checks over the parsed values for the loaders.
import { readFileSync } from "node:fs";
import { DataError } from "../../../core/errors.js";
import { parsePyJson, PyJsonError } from "../py/json.js";
import { isDict, isList, pyTypeName, type PyDict, type PyValue } from "../py/value.js";

export const DATA_DIR_HINT =
  "--data-dir must point at a folder laid out like the bundled data/bfcl (leave it out to use that copy): data/BFCL_v4_multi_turn_<category>.json, possible_answer/..., func_doc/*.json, default_state.json, long_context.json";

/** Where a value came from, for messages: "data/x.json:12". */
export interface Origin {
  readonly file: string;
  readonly line: number;
}

export function originText(origin: Origin): string {
  return `${origin.file}:${origin.line}`;
}

export function readDataFile(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "file not found"
        : code === "EISDIR"
          ? "is a directory, not a file"
          : (error as Error).message;
    throw new DataError(`BFCL data: cannot read ${path}: ${reason}`, DATA_DIR_HINT);
  }
}

function lineOf(text: string, position: number): number {
  let line = 1;
  for (let i = 0; i < position && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** A whole-file JSON document. */
export function readJsonFile(path: string): PyValue {
  const text = readDataFile(path);
  try {
    return parsePyJson(text);
  } catch (error) {
    if (error instanceof PyJsonError)
      throw new DataError(
        `BFCL data: ${path}:${lineOf(text, error.position)}: malformed JSON (${error.message})`,
        DATA_DIR_HINT,
      );
    throw error;
  }
}

/** A JSON Lines file: every non-empty line one value, with its origin. */
export function readJsonLinesFile(path: string): { readonly value: PyValue; readonly origin: Origin }[] {
  const text = readDataFile(path);
  const out: { value: PyValue; origin: Origin }[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.trim() === "") continue;
    const origin = { file: path, line: index + 1 };
    try {
      out.push({ value: parsePyJson(line), origin });
    } catch (error) {
      if (error instanceof PyJsonError)
        throw new DataError(`BFCL data: ${originText(origin)}: malformed JSON (${error.message})`, DATA_DIR_HINT);
      throw error;
    }
  }
  return out;
}

/** Thrown by the shape checks; loaders turn it into a DataError with the origin. */
function shapeError(origin: Origin, what: string, expected: string, value: PyValue | undefined): DataError {
  const found = value === undefined ? "nothing" : `a ${pyTypeName(value)}`;
  return new DataError(`BFCL data: ${originText(origin)}: ${what} must be ${expected}, found ${found}`, DATA_DIR_HINT);
}

export function dictAt(origin: Origin, what: string, value: PyValue | undefined): PyDict {
  if (!isDict(value)) throw shapeError(origin, what, "an object", value);
  return value;
}

export function listAt(origin: Origin, what: string, value: PyValue | undefined): PyValue[] {
  if (!isList(value)) throw shapeError(origin, what, "a list", value);
  return value;
}

export function stringAt(origin: Origin, what: string, value: PyValue | undefined): string {
  if (typeof value !== "string") throw shapeError(origin, what, "a string", value);
  return value;
}

export function stringListAt(origin: Origin, what: string, value: PyValue | undefined): string[] {
  return listAt(origin, what, value).map((item, index) => stringAt(origin, `${what}[${index}]`, item));
}

export function dataError(origin: Origin, message: string): DataError {
  return new DataError(`BFCL data: ${originText(origin)}: ${message}`, DATA_DIR_HINT);
}
