// The layering rules of .dependency-cruiser.cjs (checked on the sources by `npm run deps:check`) against their words in
// docs/architecture.md, "What each folder may import": the table there is derived here from the rules themselves, by
// asking each rule whether a file of one folder may import a file of another (paths standing for the folders), and
// compared exactly; every rule is named in that section. After a deliberate change of the rules, rewrite the table:
//   BUDGETRL_PIN_DEPS=1 npx vitest run test/dependency-rules.test.ts
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const DOC = fileURLToPath(new URL("../docs/architecture.md", import.meta.url));
const START = "<!-- generated from .dependency-cruiser.cjs by test/dependency-rules.test.ts -->";
const END = "<!-- end of the generated table -->";

interface PathCondition {
  readonly path?: string;
  readonly pathNot?: string;
  readonly circular?: boolean;
}

interface Rule {
  readonly name: string;
  readonly scope?: "module" | "folder";
  readonly from: PathCondition;
  readonly to: PathCondition;
}

const rules = (createRequire(import.meta.url)("../.dependency-cruiser.cjs") as { forbidden: readonly Rule[] })
  .forbidden;

/** The layers, bottom first: each folder of src/ a rule of the form layer-NAME speaks for, and cli, the top. */
const LAYERS = [
  ...rules.flatMap((rule) => (rule.name.startsWith("layer-") ? [rule.name.slice("layer-".length)] : [])),
  "cli",
];

/** The folders (and files) the first table has a row for: a path that stands for a file there. */
const ROWS: readonly (readonly [string, string])[] = [
  ...LAYERS.map((layer) => [`\`${layer}/\``, `src/${layer}/file.ts`] as const),
  ["`index.ts` (the root entry)", "src/index.ts"],
  ["`envs/bfcl/`", "src/envs/bfcl/file.ts"],
  ["`rl/backends/tiny/`", "src/rl/backends/tiny/file.ts"],
  ["`rl/backends/tinker/`", "src/rl/backends/tinker/file.ts"],
];

/** More places that may import an inside, for the second table. */
const MORE_ROWS: readonly (readonly [string, string])[] = [
  ["`nn/index.ts`", "src/nn/index.ts"],
  ["`nn/pool.ts`", "src/nn/pool.ts"],
  ["`nn/worker.ts`", "src/nn/worker.ts"],
  ["`nn/kernels/`", "src/nn/kernels/file.ts"],
  ["`nn/wasm/`", "src/nn/wasm/file.ts"],
];

/** Places inside a layer that a folder may not reach although it may import the layer: those of a part that only its
 * own files reach (the second table: who may), and the others (the first table: who may not). */
const INSIDES: readonly { readonly label: string; readonly path: string; readonly part?: boolean }[] = [
  { label: "a layer's files but its `index.ts`", path: "src/core/file.ts" },
  { label: "`envs/bfcl/*/`", path: "src/envs/bfcl/apis/file.ts", part: true },
  { label: "`nn/kernels/types.ts`", path: "src/nn/kernels/types.ts", part: true },
  { label: "`nn/kernels/reference.ts`, `wasm.ts`", path: "src/nn/kernels/wasm.ts", part: true },
  { label: "`nn/wasm/`", path: "src/nn/wasm/file.ts", part: true },
  { label: "`rl/backends/tiny/`", path: "src/rl/backends/tiny/file.ts" },
  { label: "`rl/backends/tinker/`", path: "src/rl/backends/tinker/file.ts" },
];

/** The rules that forbid `from` to import `to` ($1... in `to` are the groups of `from.path`, as dependency-cruiser reads them). */
function forbiddenBy(from: string, to: string): string[] {
  return rules.flatMap((rule) => {
    if (rule.scope === "folder" || rule.to.circular === true) return [];
    const groups = rule.from.path === undefined ? [from] : from.match(new RegExp(rule.from.path));
    if (groups === null) return [];
    if (rule.from.pathNot !== undefined && new RegExp(rule.from.pathNot).test(from)) return [];
    const fill = (pattern: string): RegExp =>
      new RegExp(pattern.replace(/\$(\d)/g, (_, n: string) => groups[Number(n)] ?? ""));
    if (rule.to.path !== undefined && !fill(rule.to.path).test(to)) return [];
    if (rule.to.pathNot !== undefined && fill(rule.to.pathNot).test(to)) return [];
    return [rule.name];
  });
}

function layerOf(path: string): string {
  return path.split("/")[1] ?? "";
}

function names(rules: readonly string[]): string {
  return rules.map((rule) => `\`${rule}\``).join(", ");
}

/** The tables of docs/architecture.md as the rules give them. */
function derivedTables(): string {
  const layers = (from: string): string[] =>
    LAYERS.filter((layer) => forbiddenBy(from, `src/${layer}/index.ts`).length === 0);
  const first = ["| folder | may import (layers) | but not into (rule) |", "| --- | --- | --- |"];
  for (const [label, from] of ROWS) {
    const said = new Set<string>();
    const notInto = INSIDES.flatMap(({ label: inside, path, part }) => {
      const by = forbiddenBy(from, path);
      if (
        part === true ||
        !layers(from).includes(layerOf(path)) ||
        by.length === 0 ||
        by.every((rule) => said.has(rule))
      )
        return [];
      by.forEach((rule) => said.add(rule));
      return [`${inside} (${names(by)})`];
    });
    first.push(`| ${label} | ${layers(from).join(", ")} | ${notInto.join("; ")} |`);
  }
  const second = ["| inside | imported only from | rule |", "| --- | --- | --- |"];
  for (const { label, path } of INSIDES.filter((inside) => inside.part === true)) {
    // The root entry reaches no inside at all (root-entry, in the first table).
    const rows = [...ROWS, ...MORE_ROWS].filter(
      ([, from]) => from !== "src/index.ts" && layers(from).includes(layerOf(path)),
    );
    const from = rows.filter(([, row]) => forbiddenBy(row, path).length === 0).map(([row]) => row);
    const by = [...new Set(rows.flatMap(([, row]) => forbiddenBy(row, path)))];
    second.push(`| ${label} | ${from.join(", ") || "nothing"} | ${names(by)} |`);
  }
  return `${first.join("\n")}\n\n${second.join("\n")}`;
}

function docSection(doc: string): string {
  const heading = doc.indexOf("## What each folder may import");
  const next = doc.indexOf("\n## ", heading + 1);
  return doc.slice(heading, next < 0 ? undefined : next);
}

describe("dependency rules", () => {
  it("are the table of docs/architecture.md, derived from .dependency-cruiser.cjs", () => {
    const table = derivedTables();
    const read = (): { doc: string; start: number; end: number } => {
      const doc = readFileSync(DOC, "utf8");
      return { doc, start: doc.indexOf(START), end: doc.indexOf(END) };
    };
    const before = read();
    expect(before.start, `docs/architecture.md has no line ${START}`).toBeGreaterThan(0);
    expect(before.end, `docs/architecture.md has no line ${END}`).toBeGreaterThan(before.start);
    if (process.env["BUDGETRL_PIN_DEPS"] === "1")
      writeFileSync(
        DOC,
        `${before.doc.slice(0, before.start + START.length)}\n${table}\n${before.doc.slice(before.end)}`,
      );
    const { doc, start, end } = read();
    expect(
      doc.slice(start + START.length, end).trim(),
      "the rules changed: BUDGETRL_PIN_DEPS=1 npx vitest run test/dependency-rules.test.ts rewrites the table",
    ).toBe(table);
  });

  it("are each named in the doc's section, and the layer order is the doc's", () => {
    const doc = readFileSync(DOC, "utf8");
    const section = docSection(doc);
    for (const rule of rules) {
      const name = rule.name.startsWith("layer-") ? "layer-NAME" : rule.name;
      expect(section, `the rule ${rule.name}`).toContain(`\`${name}\``);
    }
    expect(doc.replace(/\s+/g, " ")).toContain(`\`${LAYERS.join(" < ")}\``);
  });

  it("forbid what the table says, on paths of the sources (an upward import, a sibling backend, bfcl's inside)", () => {
    expect(forbiddenBy("src/tinker/client.ts", "src/rl/backend.ts")).toEqual(["layer-tinker"]);
    expect(forbiddenBy("src/rl/backends/tinker/backend.ts", "src/tinker/client.ts")).toEqual([]);
    expect(forbiddenBy("src/rl/backends/tinker/backend.ts", "src/rl/backends/tiny/backend.ts")).toEqual([
      "backend-siblings",
    ]);
    expect(forbiddenBy("src/rl/backends/tinker/backend.ts", "src/rl/backends/token-chunks.ts")).toEqual([]);
    expect(forbiddenBy("src/cli/bfcl.ts", "src/envs/bfcl/context.ts")).toEqual([]);
    expect(forbiddenBy("src/cli/bfcl.ts", "src/envs/bfcl/calls/parse.ts")).toEqual(["bfcl-internals"]);
    expect(forbiddenBy("src/envs/bfcl/apis/instance-set.ts", "src/envs/bfcl/calls/bind.ts")).toEqual([]);
  });
});
