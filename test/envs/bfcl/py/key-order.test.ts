// restoreKeyOrder: dicts whose key set upstream defines are put back in upstream's insertion order.
import { describe, expect, it } from "vitest";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import { keyOrderTable, restoreKeyOrder } from "../../../../src/envs/bfcl/py/key-order.js";
import { UPSTREAM_KEY_ORDERS } from "../../../../src/envs/bfcl/load/upstream-key-order.js";

describe("restoreKeyOrder", () => {
  it("puts dicts with a known key set back in upstream order, recursively, leaving others alone", () => {
    const table = keyOrderTable(UPSTREAM_KEY_ORDERS);
    const sorted = parsePyJson(
      '{"orders": {"12345": {"amount": 10, "id": 12345, "order_type": "Buy", "price": 210.65, "status": "Completed", "symbol": "AAPL"}}, "z": {"b": 1, "a": 2}}',
    );
    expect(pyRepr(restoreKeyOrder(sorted, table))).toBe(
      "{'orders': {'12345': {'id': 12345, 'order_type': 'Buy', 'symbol': 'AAPL', 'price': 210.65, 'amount': 10, 'status': 'Completed'}}, 'z': {'b': 1, 'a': 2}}",
    );
    const already = parsePyJson(
      '{"id": 1, "order_type": "Sell", "symbol": "X", "price": 1.0, "amount": 2, "status": "Open"}',
    );
    expect(pyRepr(restoreKeyOrder(already, table))).toBe(pyRepr(already));
  });
});
