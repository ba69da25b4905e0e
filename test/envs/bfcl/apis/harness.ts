// Test helpers for the BFCL backend classes: constants (upstream DEFAULT_STATE written out, a small stand-in for
// long_context.py), keyword-argument calls that fill defaults as the executor does and return upstream's result
// string, and access to the bundled data dir (data/bfcl).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type {
  BfclClass,
  BfclConstants,
  BfclInstance,
  MethodSpec,
} from "../../../../src/envs/bfcl/apis/backend-class.js";
import { bindArguments } from "../../../../src/envs/bfcl/calls/bind.js";
import { executionErrorText, PyException } from "../../../../src/envs/bfcl/py/errors.js";
import { pyRepr, resultString } from "../../../../src/envs/bfcl/py/format.js";
import { parsePyJson, parsePyJsonLines } from "../../../../src/envs/bfcl/py/json.js";
import { dictGet, pyDeepCopy, type PyDict, type PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { BUNDLED_BFCL_DATA_DIR } from "../../../../src/envs/bfcl/load/bundled-data.js";

/** upstream DEFAULT_STATE of each module, as default_state.json holds it (JSON: sets as lists, str keys). */
const DEFAULT_STATE_JSON = JSON.stringify({
  message_api: {
    current_user: null,
    generated_ids: [],
    inbox: [
      { USR002: "My name is Alice. I want to connect." },
      { USR003: "Could you upload the file?" },
      { USR004: "Could you upload the file?" },
    ],
    message_count: 3,
    user_count: 4,
    user_map: { Alice: "USR001", Bob: "USR002", Catherine: "USR003", Daniel: "USR004" },
  },
  posting_api: {
    authenticated: false,
    comments: {},
    following_list: ["alice", "bob"],
    password: "john123",
    retweets: {},
    tweet_counter: 0,
    tweets: {},
    username: "john",
  },
  ticket_api: { current_user: null, ticket_counter: 1, ticket_queue: [] },
});

/** A stand-in for long_context.py's file-system constants (the real ones are long). */
const LONG_CONTEXT_JSON = JSON.stringify({
  FILE_CONTENT_EXTENSION: " [padding]",
  FILES_TAIL_USED: ["log.txt"],
  POPULATE_FILE_EXTENSION: ["filler_1.txt", "filler_2.txt"],
});

export function testConstants(): BfclConstants {
  return {
    defaultState: parsePyJson(DEFAULT_STATE_JSON) as PyDict,
    longContext: parsePyJson(LONG_CONTEXT_JSON) as PyDict,
  };
}

/** Python literal-ish input as a PyValue (JSON syntax; floats keep their ".0"). */
export function py(json: string): PyValue {
  return parsePyJson(json);
}

/** Create an instance and, unless stateless, load a scenario (deep-copied, as upstream does). */
export function instantiate<T extends BfclInstance>(
  cls: BfclClass<T>,
  scenario: PyDict = new Map(),
  longContext = false,
  constants = testConstants(),
): T {
  const instance = cls.create(constants);
  if (!cls.stateless) instance.loadScenario(pyDeepCopy(scenario), longContext);
  return instance;
}

/** A class's method by name; a test naming one the class lacks fails here. */
export function methodSpec<T extends BfclInstance>(cls: BfclClass<T>, name: string): MethodSpec<T> {
  const spec = cls.methods[name];
  if (spec === undefined) throw new Error(`${cls.className} has no method ${name}`);
  return spec;
}

/** Call a method with keyword arguments, bound as the executor binds them (defaults copied): the result string. */
export function call<T extends BfclInstance>(
  cls: BfclClass<T>,
  instance: T,
  name: string,
  kwargs: Readonly<Record<string, PyValue>> = {},
): string {
  const spec = methodSpec(cls, name);
  try {
    const args = bindArguments(`${cls.className}.${name}`, spec.params, { args: [], kwargs: Object.entries(kwargs) });
    return resultString(spec.run(instance, args));
  } catch (error) {
    if (error instanceof PyException) return executionErrorText(error);
    throw error;
  }
}

/** A public attribute of an instance. */
export function attr(instance: BfclInstance, name: string): PyValue | undefined {
  return new Map(instance.publicState()).get(name);
}

/** The BFCL data bundled with budgetrl. */
const dataDir = BUNDLED_BFCL_DATA_DIR;

/** Constants read from the data dir's default_state.json and long_context.json. */
export function dataConstants(): BfclConstants {
  const dir = dataDir;
  return {
    defaultState: parsePyJson(readFileSync(join(dir, "default_state.json"), "utf8")) as PyDict,
    longContext: parsePyJson(readFileSync(join(dir, "long_context.json"), "utf8").trim()) as PyDict,
  };
}

const entriesByFile = new Map<string, PyValue[]>();

/** initial_config[className] of a data entry, e.g. entryConfig("multi_turn_base_0", "GorillaFileSystem"). */
export function entryConfig(entryId: string, className: string): PyDict {
  const category = entryId.replace(/^multi_turn_/, "").replace(/_\d+$/, "");
  const file = join(dataDir, "data", `BFCL_v4_multi_turn_${category}.json`);
  const entries = entriesByFile.get(file) ?? parsePyJsonLines(readFileSync(file, "utf8"));
  entriesByFile.set(file, entries);
  const entry = entries.find((item) => item instanceof Map && dictGet(item, "id") === entryId);
  if (!(entry instanceof Map)) throw new Error(`entry ${entryId} not found`);
  const config = dictGet(dictGet(entry, "initial_config") as PyDict, className);
  return (config ?? new Map()) as PyDict;
}

/** [method, keyword arguments as JSON (floats keep their ".0"; Infinity allowed), upstream's result string]. */
export type Step = readonly [string, string, string];

/** Load a scenario into a fresh instance and check each call's result string in order. */
export function runSteps<T extends BfclInstance>(
  cls: BfclClass<T>,
  scenario: PyDict,
  longContext: boolean,
  steps: readonly Step[],
  constants = testConstants(),
): T {
  const instance = instantiate(cls, scenario, longContext, constants);
  for (const [name, kwargs, expected] of steps) {
    const args = Object.fromEntries(py(kwargs) as PyDict) as Record<string, PyValue>;
    expect(call(cls, instance, name, args), `${name}(${kwargs})`).toBe(expected);
  }
  return instance;
}

/** Public attributes in order, each as repr() (sets as "sorted [...]", since CPython orders sets by hash). */
export function expectState(instance: BfclInstance, expected: readonly (readonly [string, string])[]): void {
  const shown = instance.publicState().map(([name, value]): [string, string] => {
    if (!(value instanceof Set)) return [name, pyRepr(value)];
    const items = [...value].sort((a, b) =>
      typeof a === "number" && typeof b === "number" ? a - b : String(a) < String(b) ? -1 : 1,
    );
    return [name, `sorted ${pyRepr(items)}`];
  });
  expect(shown).toEqual(expected.map(([name, text]) => [name, text]));
}
