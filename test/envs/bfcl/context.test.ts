// The rules an entry is played under: upstream's defaults, overrides, and which functions may run per `callable`.
import { describe, expect, it } from "vitest";
import { createInstanceSet } from "../../../src/envs/bfcl/apis/instance-set.js";
import { allowedNames, createBfclContext, DEFAULT_RULES } from "../../../src/envs/bfcl/context.js";
import { offeredAt } from "../../../src/envs/bfcl/load/func-docs.js";
import { FAKE_CLASSES, fakeContext } from "./fixtures.js";

describe("createBfclContext", () => {
  it("plays by upstream's rules unless told otherwise", () => {
    expect(DEFAULT_RULES).toEqual({
      mode: "tools",
      callable: "unexcluded",
      maxStepsPerTurn: 20,
      stopOnFailure: true,
      irrelevanceCheck: false,
    });
    const { dataset } = fakeContext();
    const context = createBfclContext(dataset, FAKE_CLASSES, { mode: "prompting", maxStepsPerTurn: 3 });
    expect(context.rules).toEqual({ ...DEFAULT_RULES, mode: "prompting", maxStepsPerTurn: 3 });
    expect([...context.registry.classes.keys()]).toEqual(["Counter", "Notes"]);
    expect(context.constants).toBe(dataset.constants);
    const entry = dataset.byId.get("multi_turn_base_0")!;
    expect(context.functionsOf(entry)).toBe(dataset.functionsOf(entry));
  });
});

describe("allowedNames", () => {
  const { context, entry } = fakeContext();
  const model = (id: string) => createInstanceSet(FAKE_CLASSES, entry(id).initialConfig, false, context.constants);

  it("lets anything run under 'all', and only what this turn offers under 'offered'", () => {
    const missFunc = entry("multi_turn_miss_func_0");
    const functions = context.functionsOf(missFunc);
    expect(allowedNames("all", missFunc, offeredAt(functions, 0), model(missFunc.id))).toBeUndefined();
    expect([...allowedNames("offered", missFunc, offeredAt(functions, 0), model(missFunc.id))!]).toEqual([
      "add",
      "get",
      "write",
      "delete",
    ]);
    expect([...allowedNames("offered", missFunc, offeredAt(functions, 2), model(missFunc.id))!]).toEqual([
      "add",
      "get",
      "write",
      "delete",
      "read",
    ]);
  });

  it("keeps excluded functions out under 'unexcluded', held-out ones in", () => {
    const base = entry("multi_turn_base_0");
    expect(base.excludedFunctions).toEqual(["delete"]);
    expect([...allowedNames("unexcluded", base, [], model(base.id))!]).toEqual(["add", "get", "write", "read"]);
    const missFunc = entry("multi_turn_miss_func_0");
    expect([
      ...allowedNames("unexcluded", missFunc, offeredAt(context.functionsOf(missFunc), 0), model(missFunc.id))!,
    ]).toContain("read");
  });
});
