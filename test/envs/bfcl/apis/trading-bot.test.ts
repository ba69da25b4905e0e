// TradingBot against upstream: every public method, happy paths and error paths, result strings and state as
// CPython produced them (fixtures/trading-bot.ts), plus the func docs and default_state.json from the data dir.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tradingBotClass } from "../../../../src/envs/bfcl/apis/trading-bot.js";
import { createInstanceSet } from "../../../../src/envs/bfcl/apis/instance-set.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import type { PyDict } from "../../../../src/envs/bfcl/py/value.js";
import { BUNDLED_BFCL_DATA_DIR } from "../../../../src/envs/bfcl/load/bundled-data.js";
import { BASE_CONFIG, SCENARIOS } from "./fixtures/trading-bot.js";
import {
  calledNames,
  expectMatchesFuncDocs,
  loadedInstance,
  playScenario,
  runCall,
  stateText,
} from "./scenario-player.js";

describe("TradingBot", () => {
  for (const scenario of SCENARIOS) {
    it(`reproduces upstream on scenario ${scenario.name}`, () => playScenario(tradingBotClass, BASE_CONFIG, scenario));
  }

  it("has scenarios calling every public method", () => {
    expect(calledNames(SCENARIOS)).toEqual(new Set(Object.keys(tradingBotClass.methods)));
  });

  it("draws transaction timestamps from its own seeded Random, identically for identical instances", () => {
    const play = (): string[] => {
      const set = loadedInstance(tradingBotClass, BASE_CONFIG, {});
      return [
        "trading_login(username='a', password='b')",
        "fund_account(amount=1)",
        "fund_account(amount=2)",
        "get_transaction_history()",
      ].map((call) => runCall(set, call));
    };
    const first = play();
    expect(play()).toEqual(first);
    // CPython: Random(1053520).randint(...) gives these two offsets from 2024-09-01 10:30:00.
    expect(first[3]).toBe(
      '{"transaction_history": [{"type": "deposit", "amount": 1, "timestamp": "2024-09-02 05:40:15"}, {"type": "deposit", "amount": 2, "timestamp": "2024-09-01 12:26:34"}]}',
    );
  });

  it("keeps the order_id as given when cancelling (12447.0 prints as a float)", () => {
    const set = loadedInstance(tradingBotClass, BASE_CONFIG, { overrides: '{"authenticated": true}' });
    expect(runCall(set, "cancel_order(order_id=12446.0)")).toBe('{"order_id": 12446.0, "status": "Cancelled"}');
    expect(runCall(set, "get_order_details(order_id=True)")).toBe(
      '{"error": "Order with ID True not found.Here is the list of orders_id: [12345, 12446]"}',
    );
  });

  it("matches the func docs (names, parameters, required, defaults)", () => {
    expectMatchesFuncDocs(tradingBotClass);
  });

  it("falls back to default_state.json for every key the scenario leaves out", () => {
    const constants = {
      defaultState: parsePyJson(readFileSync(resolve(BUNDLED_BFCL_DATA_DIR, "default_state.json"), "utf8")) as PyDict,
      longContext: new Map(),
    };
    const set = createInstanceSet([tradingBotClass], new Map(), false, constants);
    // CPython: TradingBot()._load_scenario({}) then json.dumps(public vars, sort_keys=True).
    expect(stateText(set, "TradingBot")).toBe(
      '{"account_info": {"account_id": 12345, "balance": 10000.0, "binding_card": 1974202140965533}, "authenticated": false, "long_context": false, "market_status": "Closed", "order_counter": 12446, "orders": {"12345": {"amount": 10, "id": 12345, "order_type": "Buy", "price": 210.65, "status": "Completed", "symbol": "AAPL"}, "12446": {"amount": 5, "id": 12446, "order_type": "Sell", "price": 2840.56, "status": "Pending", "symbol": "GOOG"}}, "stocks": {"AAPL": {"MA(20)": 227.09, "MA(5)": 227.11, "percent_change": 0.17, "price": 227.16, "volume": 2.552}, "ALPH": {"MA(20)": 1325.78, "MA(5)": 1321.12, "percent_change": -0.08, "price": 1320.45, "volume": 1.567}, "GOOG": {"MA(20)": 2842.15, "MA(5)": 2835.67, "percent_change": 0.24, "price": 2840.34, "volume": 1.123}, "MSFT": {"MA(20)": 310.11, "MA(5)": 309.88, "percent_change": 0.09, "price": 310.23, "volume": 3.234}, "NEPT": {"MA(20)": 88.67, "MA(5)": 88.21, "percent_change": 0.19, "price": 88.34, "volume": 0.654}, "NVDA": {"MA(20)": 220.67, "MA(5)": 220.45, "percent_change": 0.34, "price": 220.34, "volume": 1.234}, "OMEG": {"MA(20)": 458.12, "MA(5)": 456.78, "percent_change": 0.12, "price": 457.23, "volume": 2.345}, "QUAS": {"MA(20)": 728.0, "MA(5)": 726.45, "percent_change": -0.03, "price": 725.89, "volume": 1.789}, "SYNX": {"MA(20)": 346.12, "MA(5)": 345.34, "percent_change": 0.11, "price": 345.67, "volume": 2.112}, "TSLA": {"MA(20)": 668.2, "MA(5)": 671.15, "percent_change": -0.12, "price": 667.92, "volume": 1.654}, "ZETA": {"MA(20)": 22.34, "MA(5)": 22.12, "percent_change": -0.05, "price": 22.09, "volume": 0.789}}, "transaction_history": [], "watch_list": ["NVDA"]}',
    );
    // Public attributes in upstream vars() order (what the state checker walks).
    const instance = set.instances.get("TradingBot");
    expect(instance?.publicState().map(([name]) => name)).toEqual([
      "orders",
      "account_info",
      "authenticated",
      "market_status",
      "order_counter",
      "stocks",
      "watch_list",
      "transaction_history",
      "long_context",
    ]);
  });
});
