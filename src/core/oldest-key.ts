// Bounded caches kept in Maps drop their oldest entry first: a Map iterates in insertion order, so the oldest entry
// is its first key.

/** Deletes the first-inserted entry of `map` (none when it is empty). */
export function deleteOldest<K, V>(map: Map<K, V>): void {
  const oldest = map.keys().next();
  if (oldest.done !== true) map.delete(oldest.value);
}
