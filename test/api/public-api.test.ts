// budgetrl's public API: the runtime names of every package entry, pinned in public-api.txt and compared exactly (a
// name added or removed is an API change, made on purpose: re-pin with
//   BUDGETRL_PIN_API=1 npx vitest run test/api/public-api.test.ts
// and commit the list with the change); the entries match package.json "exports"; every index.ts names its
// exports (no `export *`); the root re-exports its layers' indexes exactly. What importing each entry loads:
// entry-loads.test.ts.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PINNED = fileURLToPath(new URL("./public-api.txt", import.meta.url));

/** Each package entry and its module under src/ (dist/ after the build, with its .d.ts). */
const ENTRIES: Readonly<Record<string, string>> = {
  budgetrl: "index",
  "budgetrl/nn": "nn/index",
  "budgetrl/store": "store/index",
  "budgetrl/rl": "rl/index",
  "budgetrl/tinker": "rl/backends/tinker/index",
  "budgetrl/report": "report/index",
  "budgetrl/study": "study/index",
  "budgetrl/serve": "serve/index",
  "budgetrl/bullmq": "eval/bullmq/index",
};

/** The layers the root re-exports, whole. */
const ROOT_LAYERS = ["core", "envs", "agent", "policies", "metrics", "eval"] as const;

async function runtimeNames(module: string): Promise<string[]> {
  return Object.keys((await import(pathToFileURL(join(ROOT, "src", `${module}.ts`)).href)) as object).sort();
}

function pinnedText(names: ReadonlyMap<string, readonly string[]>): string {
  const header = [
    "# The runtime names each package entry exports, sorted: budgetrl's public API (types not listed).",
    "# Compared exactly by test/api/public-api.test.ts. After a deliberate change, re-pin and commit this file:",
    "#   BUDGETRL_PIN_API=1 npx vitest run test/api/public-api.test.ts",
  ];
  const sections = [...names].map(([entry, list]) => [`[${entry}] ${list.length}`, ...list].join("\n"));
  return `${header.join("\n")}\n\n${sections.join("\n\n")}\n`;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : [path];
  });
}

describe("public API", () => {
  it("exports exactly the pinned runtime names from every entry", async () => {
    const names = new Map<string, string[]>();
    for (const [entry, module] of Object.entries(ENTRIES)) names.set(entry, await runtimeNames(module));
    const text = pinnedText(names);
    if (process.env["BUDGETRL_PIN_API"] === "1") writeFileSync(PINNED, text);
    const pinned = existsSync(PINNED) ? readFileSync(PINNED, "utf8") : "";
    expect(
      text,
      "the public API changed: if on purpose, re-pin with BUDGETRL_PIN_API=1 npx vitest run test/api/public-api.test.ts and commit test/api/public-api.txt",
    ).toBe(pinned);
  });

  it("has package.json exports for exactly these entries, built from src/ to dist/", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      exports: Record<string, { types: string; default: string }>;
      main: string;
      types: string;
    };
    const expected = Object.fromEntries(
      Object.entries(ENTRIES).map(([entry, module]) => [
        entry.replace(/^budgetrl/, "."),
        { types: `./dist/${module}.d.ts`, default: `./dist/${module}.js` },
      ]),
    );
    expect(manifest.exports).toEqual(expected);
    expect([manifest.main, manifest.types]).toEqual(["dist/index.js", "dist/index.d.ts"]);
  });

  it("names every export of every index.ts (no export *)", () => {
    const indexes = sourceFiles(join(ROOT, "src")).filter(
      (path) => path.endsWith("/index.ts") && !path.includes("/nn/wasm/"),
    );
    const starred = indexes.filter((path) => /^\s*export\s+\*/m.test(readFileSync(path, "utf8")));
    expect(starred.map((path) => path.slice(ROOT.length))).toEqual([]);
  });

  it("re-exports at the root exactly what its layers' indexes export", async () => {
    const layers = new Set<string>();
    for (const layer of ROOT_LAYERS) for (const name of await runtimeNames(`${layer}/index`)) layers.add(name);
    expect(await runtimeNames("index")).toEqual([...layers].sort());
  });
});
