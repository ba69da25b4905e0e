// The BFCL data bundled with budgetrl: where the default data dir points, and that every bundled file still has
// the SHA-256 recorded in data/bfcl/SHA256SUMS (so that accidental edits are caught), with nothing unlisted.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUNDLED_BFCL_DATA_DIR, resolveDataDir } from "../../../../src/envs/bfcl/load/bundled-data.js";

const MANIFEST = "SHA256SUMS";

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? filesUnder(join(dir, item.name)) : [join(dir, item.name)],
  );
}

/** `sha256sum` lines: "<hex>  <path>". */
function manifest(): Map<string, string> {
  const lines = readFileSync(join(BUNDLED_BFCL_DATA_DIR, MANIFEST), "utf8")
    .split("\n")
    .filter((line) => line !== "");
  return new Map(
    lines.map((line) => {
      const match = /^([0-9a-f]{64}) {2}(\S.*)$/.exec(line);
      if (match === null) throw new Error(`${MANIFEST}: not a sha256sum line: ${line}`);
      return [match[2]!, match[1]!];
    }),
  );
}

describe("bundled BFCL data", () => {
  it("is data/bfcl at the package root, the default data dir", () => {
    expect(BUNDLED_BFCL_DATA_DIR).toBe(fileURLToPath(new URL("../../../../data/bfcl", import.meta.url)));
    expect(resolveDataDir(undefined)).toBe(BUNDLED_BFCL_DATA_DIR);
    expect(resolveDataDir("")).toBe(BUNDLED_BFCL_DATA_DIR);
    expect(resolveDataDir("../elsewhere")).toBe("../elsewhere");
  });

  it("matches SHA256SUMS file for file, with every file listed", () => {
    const expected = manifest();
    const present = filesUnder(BUNDLED_BFCL_DATA_DIR)
      .map((path) => relative(BUNDLED_BFCL_DATA_DIR, path).split("\\").join("/"))
      .filter((path) => path !== MANIFEST);
    expect(present.sort()).toEqual([...expected.keys()].sort());
    for (const path of present) {
      const digest = createHash("sha256")
        .update(readFileSync(join(BUNDLED_BFCL_DATA_DIR, path)))
        .digest("hex");
      expect(digest, `${path} differs from ${MANIFEST}`).toBe(expected.get(path));
    }
    for (const folder of ["data", "possible_answer"])
      for (const category of ["base", "miss_func", "miss_param", "long_context"])
        expect(expected.has(`${folder}/BFCL_v4_multi_turn_${category}.json`)).toBe(true);
    for (const path of ["LICENSE", "NOTICE", "PROVENANCE.md", "default_state.json", "long_context.json"])
      expect(expected.has(path)).toBe(true);
  });
});
