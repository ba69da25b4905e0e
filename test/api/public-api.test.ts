// budgetrl's public API: the runtime and type names of every package entry, pinned in public-api.txt and compared
// exactly (a name added or removed is an API change, made on purpose: re-pin with
//   BUDGETRL_PIN_API=1 npx vitest run test/api/public-api.test.ts
// and commit the list with the change); the names read from each entry's source (exported-names.ts) are the ones
// importing it gives; the entries match package.json "exports"; every index.ts and entry.ts names its exports (no
// `export *`); the root re-exports exactly what its layers' indexes export, and no env internal: of each env only
// the constructor and the type of its options, the rest in "budgetrl/envs/<name>". What importing each entry
// loads: entry-loads.test.ts.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { exportedNames, type ExportedNames } from "./exported-names.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PINNED = fileURLToPath(new URL("./public-api.txt", import.meta.url));

/** The env entries: each env's name and what the root exports of it (its constructor and the type of its options). */
const ENV_FRONTS: Readonly<Record<string, readonly string[]>> = {
  sokoban: ["sokoban", "SokobanConfig"],
  frozenlake: ["frozenlake", "FrozenLakeConfig"],
  hanoi: ["hanoi", "HanoiConfig"],
  vault: ["vault", "VaultConfig"],
  thinice: ["thinice", "ThinIceConfig"],
  bfcl: ["bfcl", "BfclEnv", "BfclOptions"],
};

/** Each package entry and its module under src/ (dist/ after the build, with its .d.ts). */
const ENTRIES: Readonly<Record<string, string>> = {
  budgetrl: "index",
  ...Object.fromEntries(Object.keys(ENV_FRONTS).map((env) => [`budgetrl/envs/${env}`, `envs/${env}/entry`])),
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

function namesOf(module: string): ExportedNames {
  return exportedNames(join(ROOT, "src", `${module}.ts`));
}

async function runtimeNames(module: string): Promise<string[]> {
  return Object.keys((await import(pathToFileURL(join(ROOT, "src", `${module}.ts`)).href)) as object).sort();
}

/** Every name a module exports, types marked: `name` or `type Name`. */
function marked(names: ExportedNames): string[] {
  return [...names.runtime, ...names.types.map((name) => `type ${name}`)];
}

function pinnedText(names: ReadonlyMap<string, ExportedNames>): string {
  const header = [
    "# The names each package entry exports, sorted, runtime names first, then the types (interfaces and type",
    "# aliases) marked `type`: budgetrl's public API. Compared exactly by test/api/public-api.test.ts. After a",
    "# deliberate change, re-pin and commit this file:",
    "#   BUDGETRL_PIN_API=1 npx vitest run test/api/public-api.test.ts",
  ];
  const sections = [...names].map(([entry, list]) =>
    [`[${entry}] ${list.runtime.length} runtime, ${list.types.length} types`, ...marked(list)].join("\n"),
  );
  return `${header.join("\n")}\n\n${sections.join("\n\n")}\n`;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : [path];
  });
}

describe("public API", () => {
  it("exports exactly the pinned runtime and type names from every entry", () => {
    const names = new Map(Object.entries(ENTRIES).map(([entry, module]) => [entry, namesOf(module)]));
    const text = pinnedText(names);
    if (process.env["BUDGETRL_PIN_API"] === "1") writeFileSync(PINNED, text);
    const pinned = existsSync(PINNED) ? readFileSync(PINNED, "utf8") : "";
    expect(
      text,
      "the public API changed: if on purpose, re-pin with BUDGETRL_PIN_API=1 npx vitest run test/api/public-api.test.ts and commit test/api/public-api.txt",
    ).toBe(pinned);
  });

  it("reads from each entry's source the runtime names that importing it gives", async () => {
    for (const module of Object.values(ENTRIES)) {
      expect(namesOf(module).runtime, module).toEqual(await runtimeNames(module));
    }
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

  it("names every export of every index.ts and entry.ts (no export *)", () => {
    const indexes = sourceFiles(join(ROOT, "src")).filter(
      (path) => (path.endsWith("/index.ts") || path.endsWith("/entry.ts")) && !path.includes("/nn/wasm/"),
    );
    const starred = indexes.filter((path) => exportedNames(path).starred.length > 0);
    expect(starred.map((path) => path.slice(ROOT.length))).toEqual([]);
  });

  it("re-exports at the root exactly what its layers' indexes export, runtime names and types", () => {
    const layers = ROOT_LAYERS.map((layer) => marked(namesOf(`${layer}/index`)));
    expect(marked(namesOf("index")).sort()).toEqual([...new Set(layers.flat())].sort());
  });

  it("exports no env internal at the root: of each env, its constructor and options type only", () => {
    const root = new Set(marked(namesOf("index")).map((name) => name.replace(/^type /, "")));
    for (const [env, front] of Object.entries(ENV_FRONTS)) {
      const { runtime, types } = namesOf(`envs/${env}/entry`);
      expect([...runtime, ...types].filter((name) => root.has(name)).sort(), env).toEqual([...front].sort());
    }
    // BFCL's wing index and the helpers the envs share hold nothing the root exports but the BFCL front.
    const fronts: [string, readonly string[]][] = [
      ["envs/bfcl/index", ENV_FRONTS["bfcl"] ?? []],
      ["envs/shared/index", []],
    ];
    for (const [module, front] of fronts) {
      const { runtime, types } = namesOf(module);
      expect(
        [...runtime, ...types].filter((name) => root.has(name) && !front.includes(name)),
        module,
      ).toEqual([]);
    }
  });
});
