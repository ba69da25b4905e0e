// The layering of src/ as rules that fail the build: `npm run deps:check` (dependency-cruiser) runs them, and CI runs
// it after the format check. docs/architecture.md ("What each folder may import") is the same rules in words, a table
// that test/dependency-rules.test.ts derives from this file and compares with the doc.
//
// - Layers: a module imports only from its own layer and the layers below it, in the order of LAYERS.
// - Parts: a trainer backend (rl/backends/NAME/) imports nothing of a sibling backend; outside envs/bfcl/ nothing
//   reaches into its subfolders (its internals: apis/, calls/, py/, ...); the kernel implementations
//   (nn/kernels/reference.ts, wasm.ts) are chosen by nn/pool.ts and nn/worker.ts alone (nn's index names the build in
//   use), the rest of nn sees the contract (nn/kernels/types.ts), nothing outside nn sees the kernels, and nothing imports the AssemblyScript
//   sources (nn/wasm/, compiled to .wasm files).
// - Cycles: no two folders import each other, at any depth (through any chain of files); no file imports one that
//   imports it back, even through a type import, but for the two circles of type imports below.
// Type-only imports count everywhere: swc parses the sources (TypeScript 7 has no JavaScript API for
// dependency-cruiser's own TypeScript parser) and every import statement is a dependency, as are lazy import()s.

/** The layers, bottom first: a layer may import from itself and the layers before it. */
const LAYERS = [
  "core",
  "envs",
  "agent",
  "nn",
  "policies",
  "tinker",
  "store",
  "metrics",
  "eval",
  "rl",
  "report",
  "study",
  "serve",
  "view",
  "cli",
];

const layerRules = LAYERS.slice(0, -1).map((layer, at) => ({
  name: `layer-${layer}`,
  comment: `${layer} imports from ${LAYERS.slice(0, at + 1).join(", ")} only: ${LAYERS.slice(at + 1).join(", ")} are above it`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(at + 1).join("|")})/` },
}));

/** File-level circles left, each of type imports: core's TaskSource and BudgetScope name each other's types (no code
 * loads the other). */
const KNOWN_TYPE_CIRCLES = "^src/core/(task-source|budget)\\.ts$";

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "root-entry",
      comment: "the root entry (src/index.ts) re-exports layers' indexes only",
      severity: "error",
      from: { path: "^src/index\\.ts$" },
      to: { path: "^src/", pathNot: "^src/[^/]+/index\\.ts$" },
    },
    {
      name: "backend-siblings",
      comment: "a trainer backend imports nothing of a sibling backend: what they share lives in rl (rl/backends/*.ts)",
      severity: "error",
      from: { path: "^src/rl/backends/([^/]+)/" },
      to: { path: "^src/rl/backends/[^/]+/", pathNot: "^src/rl/backends/$1/" },
    },
    {
      name: "bfcl-internals",
      comment: "outside envs/bfcl/ nothing reaches into its subfolders: the wing's face is its top-level files",
      severity: "error",
      from: { pathNot: "^src/envs/bfcl/" },
      to: { path: "^src/envs/bfcl/[^/]+/" },
    },
    {
      name: "nn-kernels",
      comment:
        "outside nn nothing sees the kernels; inside nn, pool.ts and worker.ts alone choose an implementation (and the index names the build in use)",
      severity: "error",
      from: { pathNot: "^src/nn/(kernels/|index\\.ts$|pool\\.ts$|worker\\.ts$)" },
      to: { path: "^src/nn/kernels/(reference|wasm)\\.ts$" },
    },
    {
      name: "nn-kernel-contract",
      comment: "the kernel contract (nn/kernels/types.ts) is nn's own",
      severity: "error",
      from: { pathNot: "^src/nn/" },
      to: { path: "^src/nn/kernels/" },
    },
    {
      name: "nn-wasm-sources",
      comment: "the AssemblyScript sources (nn/wasm/) are compiled to .wasm files, never imported",
      severity: "error",
      from: { pathNot: "^src/nn/wasm/" },
      to: { path: "^src/nn/wasm/" },
    },
    {
      name: "no-folder-cycle",
      comment:
        "no two folders import each other, through any chain of files (a shared contract gets a file of its own)",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-file-cycle",
      comment: "no file imports one that imports it back (types included), but for the known circles of type imports",
      severity: "error",
      from: { pathNot: KNOWN_TYPE_CIRCLES },
      to: { circular: true },
    },
  ],
  options: {
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    // node: builtins and packages are not layers.
    includeOnly: "^src/",
  },
};
