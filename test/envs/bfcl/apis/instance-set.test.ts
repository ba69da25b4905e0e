// Running calls on an instance set: results as upstream's strings, fresh arguments per run, errors as results.
import { describe, expect, it } from "vitest";
import { defineBfclClass, type BfclInstance } from "../../../../src/envs/bfcl/apis/backend-class.js";
import { parseCall } from "../../../../src/envs/bfcl/calls/parse.js";
import { createInstanceSet, executeCall } from "../../../../src/envs/bfcl/apis/instance-set.js";
import { pyRaise } from "../../../../src/envs/bfcl/py/errors.js";
import { pyJsonDumps } from "../../../../src/envs/bfcl/py/format.js";
import { pyDictOf, pyFloat, type PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { instancesState } from "../../../../src/envs/bfcl/check/state-dump.js";

interface Counter extends BfclInstance {
  count: number;
  tags: Set<string>;
  kept?: PyValue[];
}

const counterClass = defineBfclClass<Counter>({
  className: "Counter",
  moduleName: "counter",
  stateless: false,
  create: () => ({
    count: 0,
    tags: new Set(),
    loadScenario(scenario) {
      const start = scenario.get("start");
      this.count = typeof start === "number" ? start : 0;
    },
    publicState() {
      return [
        ["count", this.count],
        ["tags", this.tags],
      ] as const;
    },
  }),
  methods: {
    add: {
      params: [{ name: "amount", default: 1 }],
      run(self, args) {
        const amount = args.get("amount");
        if (typeof amount !== "number") pyRaise("ValueError", "amount must be an int");
        self.count += amount;
        return pyDictOf({ count: self.count, half: pyFloat(self.count / 2) });
      },
    },
    tag: {
      params: [{ name: "name" }],
      run(self, args) {
        self.tags.add(String(args.get("name")));
        return null;
      },
    },
    keep: {
      params: [{ name: "items" }],
      run(self, args) {
        const items = args.get("items") as PyValue[];
        self.kept = items;
        items.push("added");
        return items.length;
      },
    },
    crash: {
      params: [],
      run(): PyValue {
        throw new TypeError("cannot read properties of undefined");
      },
    },
  },
});

function run(set: ReturnType<typeof createInstanceSet>, text: string, available?: ReadonlySet<string>) {
  const verdict = parseCall(text);
  if (!verdict.valid) throw new Error(verdict.message);
  return executeCall(set, verdict.call, available);
}

describe("executeCall", () => {
  const constants = { defaultState: new Map(), longContext: new Map() };

  it("runs methods by bare name, turning results into upstream's strings", () => {
    const set = createInstanceSet([counterClass], new Map([["Counter", pyDictOf({ start: 4 })]]), false, constants);
    expect(run(set, "add(amount=2)")).toEqual({ text: '{"count": 6, "half": 3.0}', ok: true });
    expect(run(set, "tag('b')").text).toBe("None");
    expect(run(set, "tag(name='a')").text).toBe("None");
    expect(pyJsonDumps(instancesState(set.instances), { sortKeys: true })).toBe(
      '{"Counter": {"count": 6, "tags": ["a", "b"]}}',
    );
  });

  it("gives every run fresh argument values, as evaluating the call text does", () => {
    const set = createInstanceSet([counterClass], new Map(), false, constants);
    const verdict = parseCall("keep(items=['a'])");
    if (!verdict.valid) throw new Error(verdict.message);
    expect(executeCall(set, verdict.call).text).toBe("2");
    expect(executeCall(set, verdict.call).text).toBe("2");
    expect(verdict.call.kwargs[0]?.[1]).toEqual(["a"]);
  });

  it("answers errors as upstream does, never throwing", () => {
    const set = createInstanceSet([counterClass], new Map(), false, constants);
    expect(run(set, "add(amount='x')").text).toBe("Error during execution: amount must be an int");
    expect(run(set, "add(k=1)").text).toBe(
      "Error during execution: Counter.add() got an unexpected keyword argument 'k'",
    );
    expect(run(set, "nope()").text).toBe("Error during execution: name 'nope' is not defined");
    expect(run(set, "os.system('ls')").text).toBe("Error during execution: name 'os' is not defined");
    expect(run(set, "exit()").text).toBe("Error during execution: Function call exit is not allowed.");
    expect(run(set, "add()", new Set(["tag"])).text).toBe("Error during execution: name 'add' is not defined");
    const crash = run(set, "crash()");
    expect(crash.ok).toBe(false);
    expect(crash.internal).toContain("undefined");
  });
});
