// loadBfclDataset on the fake data dir: entries, the docs of their classes, constants, cached offered functions.
import { describe, expect, it } from "vitest";
import { loadBfclDataset } from "../../../../src/envs/bfcl/load/dataset.js";
import { bfclClassRegistry } from "../../../../src/envs/bfcl/apis/class-registry.js";
import { FAKE_CLASSES, counterClass, writeFakeDataDir } from "../fixtures.js";

describe("loadBfclDataset", () => {
  it("loads entries, the docs of their classes and the constants, and caches offered functions", () => {
    const dataset = loadBfclDataset(writeFakeDataDir(), ["base", "miss_func"], {
      registry: bfclClassRegistry(FAKE_CLASSES),
    });
    expect(dataset.entries).toHaveLength(3);
    expect(dataset.byId.get("multi_turn_miss_func_0")?.category).toBe("miss_func");
    expect([...dataset.docs.keys()]).toEqual(["Counter", "Notes"]);
    const entry = dataset.entries[0]!;
    expect(dataset.functionsOf(entry)).toBe(dataset.functionsOf(entry));
  });

  it("refuses missing classes before reading any doc, and ids that repeat across categories", () => {
    expect(() =>
      loadBfclDataset(writeFakeDataDir(), ["base"], { registry: bfclClassRegistry([counterClass]) }),
    ).toThrow(/backend class Notes is not available/);
    const dir = writeFakeDataDir((files) => {
      files.set(
        "data/BFCL_v4_multi_turn_miss_param.json",
        (files.get("data/BFCL_v4_multi_turn_miss_param.json") as string).replace(
          "multi_turn_miss_param_0",
          "multi_turn_base_0",
        ),
      );
      files.set(
        "possible_answer/BFCL_v4_multi_turn_miss_param.json",
        (files.get("possible_answer/BFCL_v4_multi_turn_miss_param.json") as string).replace(
          "multi_turn_miss_param_0",
          "multi_turn_base_0",
        ),
      );
    });
    expect(() => loadBfclDataset(dir, ["base", "miss_param"], { registry: bfclClassRegistry(FAKE_CLASSES) })).toThrow(
      /"multi_turn_base_0" appears in two categories/,
    );
  });
});
