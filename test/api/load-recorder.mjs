// Module hooks for test/api/public-api.test.ts: every URL the ES module loader resolves is appended to a file (one
// per line), written synchronously in the hooks thread, so the file is complete once an `await import()` returns.
// Registered by the child process the test spawns: register(thisFile, { data: { log } }).
import { appendFileSync } from "node:fs";

let log;

export function initialize(data) {
  log = data.log;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(log, `${resolved.url}\n`);
  return resolved;
}
