// What importing a package entry loads: the root ("budgetrl") loads none of the heavy dependencies (BullMQ and
// Redis, PostgreSQL and SQLite, Vega, the Hugging Face tokenizers and templates, Tinker's wire format), nor do the
// env entries ("budgetrl/envs/<name>"), "budgetrl/store" (until a store is opened), "budgetrl/nn", "budgetrl/serve",
// "budgetrl/report" (Vega's builds are read when HTML is rendered), "budgetrl/rl" and "budgetrl/study" (Tinker's
// modules when a run uses Tinker); the entries that need them ("budgetrl/bullmq", "budgetrl/tinker") do. Checked in
// a fresh `node --import tsx` whose module loader records every URL it resolves (load-recorder.mjs), CommonJS
// modules read from require.cache.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What importing the root must not load. */
const HEAVY = [
  "bullmq",
  "ioredis",
  "pg",
  "better-sqlite3",
  "vega",
  "vega-lite",
  "vega-embed",
  "@huggingface/tokenizers",
  "@huggingface/jinja",
  "protobufjs",
  "@hpcc-js/wasm-zstd",
];

/** The npm package a resolved URL (or CommonJS path) belongs to, if any. */
function packageOf(location: string): string | undefined {
  const at = location.lastIndexOf("/node_modules/");
  if (at < 0) return undefined;
  const [first = "", second = ""] = location.slice(at + "/node_modules/".length).split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

/** Import `modules` one after another in a fresh `node --import tsx`; the packages loaded so far after each. */
function packagesLoaded(modules: readonly string[]): string[][] {
  const log = join(mkdtempSync(join(tmpdir(), "budgetrl-api-")), "resolved.txt");
  writeFileSync(log, "");
  const script = `
    import { register, createRequire } from "node:module";
    import { readFileSync } from "node:fs";
    const { hooks, log, urls } = JSON.parse(process.env.BUDGETRL_API_LOAD);
    register(hooks, { data: { log } });
    const cjs = createRequire(import.meta.url).cache;
    const seen = [];
    for (const url of urls) {
      await import(url);
      seen.push([...new Set([...readFileSync(log, "utf8").split("\\n").filter(Boolean), ...Object.keys(cjs)])]);
    }
    process.stdout.write(JSON.stringify(seen));`;
  const urls = modules.map((module) => pathToFileURL(join(ROOT, "src", `${module}.ts`)).href);
  const env = {
    ...process.env,
    BUDGETRL_API_LOAD: JSON.stringify({ hooks: new URL("./load-recorder.mjs", import.meta.url).href, log, urls }),
  };
  const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const seen = JSON.parse(output) as string[][];
  return seen.map((locations) => [...new Set(locations.map(packageOf).filter((name) => name !== undefined))].sort());
}

/** The entries that load none of HEAVY at import, in the order they are imported (after the root). */
const LIGHT_ENTRIES = [
  "envs/sokoban/entry",
  "envs/frozenlake/entry",
  "envs/hanoi/entry",
  "envs/vault/entry",
  "envs/thinice/entry",
  "envs/bfcl/entry",
  "store/index",
  "nn/index",
  "serve/index",
  "report/index",
  "rl/index",
  "study/index",
] as const;

describe("package entries", () => {
  it("load none of the heavy dependencies for the root, the envs, store, nn, serve, report, rl and study, and the heavy ones for their entries", () => {
    // One process imports them in turn, so each list holds what every entry before it loaded too: a light entry's
    // list without HEAVY means none of the entries up to it loads one.
    const loaded = packagesLoaded(["index", ...LIGHT_ENTRIES, "eval/bullmq/index", "rl/backends/tinker/index"]);
    const [root = [], ...rest] = loaded;
    expect(
      root.filter((name) => HEAVY.includes(name)),
      `the root loads ${root.join(", ")}`,
    ).toEqual([]);
    // The store loads its backend (pg or better-sqlite3) when a store of that kind is opened; the report reads the
    // Vega builds as files when it renders HTML; rl and study import Tinker's modules when a run trains or samples
    // on Tinker.
    LIGHT_ENTRIES.forEach((entry, at) => {
      const seen = rest[at] ?? [];
      expect(
        seen.filter((name) => HEAVY.includes(name)),
        `${entry} (after the entries before it) loads ${seen.join(", ")}`,
      ).toEqual([]);
    });
    // The recorder sees what the heavy entries load (ES modules and CommonJS alike).
    const [bullmq = [], tinker = []] = rest.slice(LIGHT_ENTRIES.length);
    expect(bullmq).toEqual(expect.arrayContaining(["bullmq", "ioredis"]));
    expect(tinker).toEqual(
      expect.arrayContaining(["@huggingface/tokenizers", "@huggingface/jinja", "protobufjs", "@hpcc-js/wasm-zstd"]),
    );
  });
});
