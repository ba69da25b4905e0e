// Test helper: plays a scenario of call strings on a fresh backend instance, through the same parser and executor
// the environment uses, and checks every result string and the final public state against what CPython produced
// running upstream's class on the same scenario (the expectations live in fixtures/). Also reads the func docs.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect } from "vitest";
import type { BfclClass, BfclConstants, BfclInstance } from "../../../../src/envs/bfcl/apis/backend-class.js";
import { parseCall } from "../../../../src/envs/bfcl/calls/parse.js";
import { createInstanceSet, executeCall } from "../../../../src/envs/bfcl/apis/instance-set.js";
import { pyJsonDumps } from "../../../../src/envs/bfcl/py/format.js";
import { parsePyJson, parsePyJsonLines } from "../../../../src/envs/bfcl/py/json.js";
import type { PyDict, PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { instanceState } from "../../../../src/envs/bfcl/check/state-dump.js";
import { BUNDLED_BFCL_DATA_DIR } from "../../../../src/envs/bfcl/load/bundled-data.js";

export interface Scenario {
  readonly name: string;
  /** JSON dict whose keys replace the base config's. */
  readonly overrides?: string;
  readonly longContext?: boolean;
  /** JSON dict of long-context constants replacing TEST_LONG_CONTEXT's for this scenario. */
  readonly constants?: string;
  /** [call string, result string upstream produced]. */
  readonly steps: readonly (readonly [string, string])[];
  /** json.dumps(public state, sort_keys=True) after the last step, as upstream produced it. */
  readonly state: string;
}

/** Upstream DEFAULT_STATE values the test configs leave out. */
const TEST_DEFAULT_STATE = `{"trading_bot": {"random_seed": 1053520}, "travel_booking": {"random_seed": 141053},
  "vehicle_control": {"random_seed": 141053, "remainingUnlockedDoors": 4}}`;

/** Small stand-ins for upstream's long_context constants (the scenarios were run upstream with these). */
export const TEST_LONG_CONTEXT = `{
  "MA_5_EXTENSION": [1.5, 2], "MA_20_EXTENSION": [3.25], "WATCH_LIST_EXTENSION": ["WL1", {"__python_ellipsis__": true}],
  "TRANSACTION_HISTORY_EXTENSION": [{"type": "deposit", "amount": 1.5, "timestamp": "2023-10-04 06:33:21.858835"}],
  "ORDER_DETAIL_EXTENSION": {"overview": "{symbol} leads.", "risks": "Risks for {symbol}: {{none}}"},
  "TECHNOLOGY_EXTENSION": ["T1"], "AUTOMOBILE_EXTENSION": ["A1"],
  "CREDIT_CARD_EXTENSION": {
    "9000": {"card_number": "9000", "expiration_date": "01/30", "cardholder_name": "X", "card_verification_number": 1, "balance": 6000.0},
    "144756014165": {"card_number": "1", "expiration_date": "01/30", "cardholder_name": "Y", "card_verification_number": 2, "balance": 1.0}},
  "BOOKING_RECORD_EXTENSION": {"booking_900": {"card_id": "9000", "travel_date": "2024-12-05", "travel_from": "SFO", "travel_to": "JFK",
    "travel_class": "business", "travel_cost": 1300.0, "transaction_id": "trans_900"}},
  "LONG_WEATHER_EXTENSION": {"-1_day": {"windSpeed": 15.0, "uvIndex": 6}},
  "CAR_STATUS_METADATA_EXTENSION": "Manufacturer: Audi", "INTERMEDIARY_CITIES": ["New Hamilton", "Jacksonville"],
  "PARKING_BRAKE_INSTRUCTION": "Pull the lever."}`;

const dict = (text: string): PyDict => parsePyJson(text) as PyDict;

export function testConstants(overrides?: string): BfclConstants {
  const longContext = dict(TEST_LONG_CONTEXT);
  if (overrides !== undefined) for (const [key, value] of dict(overrides)) longContext.set(key, value);
  return { defaultState: dict(TEST_DEFAULT_STATE), longContext };
}

/** A fresh instance of `cls` loaded with the base config plus the scenario's overrides. */
export function loadedInstance<T extends BfclInstance>(
  cls: BfclClass<T>,
  baseConfig: string,
  scenario: Pick<Scenario, "overrides" | "longContext" | "constants">,
) {
  const config = dict(baseConfig);
  if (scenario.overrides !== undefined) for (const [key, value] of dict(scenario.overrides)) config.set(key, value);
  return createInstanceSet(
    [cls as unknown as BfclClass],
    new Map([[cls.className, config]]),
    scenario.longContext ?? false,
    testConstants(scenario.constants),
  );
}

/** Run one call string on a set, returning the result string. */
export function runCall(set: ReturnType<typeof createInstanceSet>, text: string): string {
  const verdict = parseCall(text);
  if (!verdict.valid) throw new Error(`test call does not parse: ${text}: ${verdict.message}`);
  return executeCall(set, verdict.call).text;
}

export function stateText(set: ReturnType<typeof createInstanceSet>, className: string): string {
  return pyJsonDumps(instanceState(set.instances.get(className) as BfclInstance), { sortKeys: true });
}

export function playScenario<T extends BfclInstance>(cls: BfclClass<T>, baseConfig: string, scenario: Scenario): void {
  const set = loadedInstance(cls, baseConfig, scenario);
  for (const [call, expected] of scenario.steps) expect(runCall(set, call), call).toBe(expected);
  expect(stateText(set, cls.className)).toBe(scenario.state);
}

/** The function names the scenarios call. */
export function calledNames(scenarios: readonly Scenario[]): Set<string> {
  return new Set(scenarios.flatMap((scenario) => scenario.steps.map(([call]) => call.slice(0, call.indexOf("(")))));
}

export interface FuncDoc {
  readonly name: string;
  readonly properties: readonly string[];
  readonly required: readonly string[];
  readonly defaults: ReadonlyMap<string, PyValue>;
}

/** func_doc/<module>.json from the data dir: names, parameter names, required ones and declared defaults. */
export function readFuncDocs(moduleName: string): FuncDoc[] {
  const text = readFileSync(resolve(BUNDLED_BFCL_DATA_DIR, "func_doc", `${moduleName}.json`), "utf8");
  return parsePyJsonLines(text).map((entry) => {
    const doc = entry as PyDict;
    const parameters = doc.get("parameters") as PyDict;
    const properties = parameters.get("properties") as PyDict;
    const defaults = new Map<string, PyValue>();
    for (const [name, spec] of properties) {
      const declared = (spec as PyDict).get("default");
      if (declared !== undefined) defaults.set(String(name), declared);
    }
    return {
      name: doc.get("name") as string,
      properties: [...properties.keys()].map(String),
      required: ((parameters.get("required") as PyValue[] | undefined) ?? []).map(String),
      defaults,
    };
  });
}

/** Check a class's methods against its func docs: same names, same parameter sets, same required ones and defaults. */
export function expectMatchesFuncDocs<T extends BfclInstance>(cls: BfclClass<T>): void {
  const docs = readFuncDocs(cls.moduleName);
  expect(new Set(Object.keys(cls.methods))).toEqual(new Set(docs.map((doc) => doc.name)));
  for (const doc of docs) {
    const params = cls.methods[doc.name]?.params ?? [];
    expect(new Set(params.map((param) => param.name)), doc.name).toEqual(new Set(doc.properties));
    expect(
      params.filter((param) => !("default" in param)).map((param) => param.name),
      doc.name,
    ).toEqual(doc.required);
    for (const param of params.filter((param) => "default" in param)) {
      // The docs write Python's None default as the string "None".
      const declared = doc.defaults.get(param.name);
      expect(param.default === null ? "None" : param.default, `${doc.name}.${param.name}`).toEqual(declared);
    }
  }
}
