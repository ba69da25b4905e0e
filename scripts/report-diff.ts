// Two study reports (report.json) compared figure by figure: what a refactor must leave unchanged. Fields that
// record when and where a report was made (generatedAt, createdAt, the plan's fixedAt, the store's path, the code
// version) are left out, and each report's own study folder reads as <study> in every text; everything else must be
// equal, numbers bit for bit. Prints the first differing paths and
// exits 1 when any differ.
//   npx tsx scripts/report-diff.ts BEFORE/report.json AFTER/report.json
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

const VOLATILE = new Set(["generatedAt", "createdAt", "fixedAt", "store", "codeVersion"]);
const SHOWN = 20;

function differences(before: unknown, after: unknown, path: string, found: string[]): void {
  if (found.length >= SHOWN) return;
  if (Array.isArray(before) && Array.isArray(after)) {
    if (before.length !== after.length) found.push(`${path}: ${before.length} items, now ${after.length}`);
    for (let i = 0; i < Math.min(before.length, after.length); i++)
      differences(before[i], after[i], `${path}[${i}]`, found);
    return;
  }
  if (isRecord(before) && isRecord(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (VOLATILE.has(key)) continue;
      if (!(key in after)) found.push(`${path}.${key}: gone`);
      else if (!(key in before)) found.push(`${path}.${key}: new`);
      else differences(before[key], after[key], `${path}.${key}`, found);
    }
    return;
  }
  if (!Object.is(before, after)) found.push(`${path}: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const [beforePath, afterPath] = process.argv.slice(2);
if (beforePath === undefined || afterPath === undefined) {
  console.error("usage: npx tsx scripts/report-diff.ts BEFORE/report.json AFTER/report.json");
  process.exit(2);
}
/** A report with its study folder written as <study>, so two runs of one study in two folders compare equal. */
function readReport(path: string): unknown {
  const folder = dirname(resolve(path));
  return JSON.parse(readFileSync(path, "utf8"), (_key, value: unknown) =>
    typeof value === "string" ? value.replaceAll(folder, "<study>") : value,
  );
}

const found: string[] = [];
differences(readReport(beforePath), readReport(afterPath), "$", found);
if (found.length === 0)
  console.log(`same figures: ${beforePath} and ${afterPath} (when and where they were made aside)`);
else {
  console.log(found.join("\n"));
  process.exit(1);
}
