// Restoring a known insertion order of dict keys (Python dicts print in insertion order; JSON copies written
// with sorted keys lose it). A dict whose key set matches a known order is rebuilt in that order, recursively.
import type { PyDict, PyValue } from "./value.js";

export type KeyOrderTable = ReadonlyMap<string, readonly string[]>;

function signature(keys: Iterable<string>): string {
  return [...keys].sort().join("\u0000");
}

export function keyOrderTable(orders: readonly (readonly string[])[]): KeyOrderTable {
  return new Map(orders.map((keys) => [signature(keys), keys]));
}

export function restoreKeyOrder(value: PyValue, table: KeyOrderTable): PyValue {
  if (Array.isArray(value)) return value.map((item) => restoreKeyOrder(item, table));
  if (!(value instanceof Map)) return value;
  const stringKeys = [...value.keys()].every((key) => typeof key === "string");
  const order = stringKeys ? table.get(signature(value.keys() as Iterable<string>)) : undefined;
  const out: PyDict = new Map();
  for (const key of order ?? value.keys()) out.set(key, restoreKeyOrder(value.get(key) as PyValue, table));
  return out;
}
