// budgetrl's own version, read once from its package.json (two folders up from this file, in src/ and in dist/
// alike): what a client names itself with (the Tinker client's User-Agent). "unknown" when the file cannot be read.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  try {
    const file = fileURLToPath(new URL("../../package.json", import.meta.url));
    const version = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
    cached = typeof version === "string" && version !== "" ? version : "unknown";
  } catch {
    cached = "unknown";
  }
  return cached;
}
