// docs/study.md's rule table, made from the full preset's analysis plan (the one source the code reads): prints it,
// or with --write replaces the text between the docs' plan markers. test/report/plan-markdown.test.ts fails when the
// docs and the plan differ.
//   npx tsx scripts/plan-table.ts [--write]
import { readFileSync, writeFileSync } from "node:fs";
import { planMarkdown } from "../src/report/plan-markdown.js";
import { studyConfig } from "../src/study/config.js";

const START = "<!-- plan:start (scripts/plan-table.ts writes this table from the full preset's plan) -->";
const END = "<!-- plan:end -->";
const table = planMarkdown(studyConfig({ preset: "full" }).plan);

if (process.argv.includes("--write")) {
  const path = "docs/study.md";
  const text = readFileSync(path, "utf8");
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${path} has no plan markers (${START} ... ${END})`);
  writeFileSync(path, `${text.slice(0, from + START.length)}\n${table}\n${text.slice(to)}`);
  console.log(`${path}: plan table written`);
} else console.log(table);
