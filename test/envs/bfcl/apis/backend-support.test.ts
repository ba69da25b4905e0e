// Scenario reading with upstream's fallbacks, clear errors for data that has the wrong shape, and the result and
// method helpers every backend class shares.
import { describe, expect, it } from "vitest";
import {
  argument,
  BfclDataError,
  errorResult,
  expectDict,
  expectInt,
  expectList,
  longContextConstant,
  moduleDefaults,
  noArgumentMethod,
  oneArgumentMethod,
  scenarioValue,
} from "../../../../src/envs/bfcl/apis/backend-support.js";
import { bindArguments } from "../../../../src/envs/bfcl/calls/bind.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import type { PyDict, PyValue } from "../../../../src/envs/bfcl/py/value.js";

const constants = {
  defaultState: parsePyJson('{"trading_bot": {"watch_list": ["NVDA"], "random_seed": 7}}') as PyDict,
  longContext: parsePyJson('{"MA_5_EXTENSION": [1.5]}') as PyDict,
};

describe("backend support", () => {
  it("takes the scenario's value, else a deep copy of the default", () => {
    const defaults = moduleDefaults(constants, "trading_bot");
    expect(scenarioValue(new Map([["random_seed", 3]]), "random_seed", defaults)).toBe(3);
    const watchList = scenarioValue(new Map(), "watch_list", defaults);
    expect(watchList).toEqual(["NVDA"]);
    (watchList as unknown[]).push("X");
    expect(defaults.get("watch_list")).toEqual(["NVDA"]);
    expect(scenarioValue(new Map(), "engineState", new Map([["engine_state", "stopped"]]), "engine_state")).toBe(
      "stopped",
    );
  });

  it("names the field when data has the wrong shape", () => {
    expect(() => moduleDefaults(constants, "nope")).toThrow(BfclDataError);
    expect(() => scenarioValue(new Map(), "missing", new Map())).toThrow(/default state has no 'missing'/);
    expect(() => expectDict([], "TradingBot.stocks")).toThrow(/TradingBot.stocks must be a dict, got list/);
    expect(() => expectList(new Map(), "x")).toThrow(/x must be a list, got dict/);
    expect(() => expectInt("1", "y")).toThrow(/y must be an int, got str/);
    expect(() => longContextConstant(constants, "NOPE")).toThrow(/long_context has no constant 'NOPE'/);
    expect(longContextConstant(constants, "MA_5_EXTENSION")).toEqual([{ kind: "float", value: 1.5 }]);
    expect(() => argument(new Map(), "symbol")).toThrow(/argument 'symbol' was not bound/);
  });

  it("writes upstream's error dict", () => {
    expect(pyRepr(errorResult("No order found"))).toBe("{'error': 'No order found'}");
  });

  it("builds one-argument and no-argument methods that bind like upstream signatures", () => {
    const seen: PyValue[] = [];
    const one = oneArgumentMethod<{ readonly id: string }>("symbol", (self, value) => {
      seen.push(self.id, value);
      return value;
    });
    expect(one.params).toEqual([{ name: "symbol" }]);
    expect(one.run({ id: "me" }, bindArguments("X.f", one.params, { args: ["NVDA"], kwargs: [] }))).toBe("NVDA");
    expect(seen).toEqual(["me", "NVDA"]);
    expect(() => bindArguments("X.f", one.params, { args: [], kwargs: [] })).toThrow(
      /missing 1 required positional argument: 'symbol'/,
    );
    const none = noArgumentMethod<{ readonly count: number }>((self) => self.count);
    expect(none.params).toEqual([]);
    expect(none.run({ count: 4 }, new Map())).toBe(4);
    expect(() => bindArguments("X.g", none.params, { args: [1], kwargs: [] })).toThrow(
      "X.g() takes 1 positional argument but 2 were given",
    );
  });
});
