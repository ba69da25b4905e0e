// A config error the library names by its config field (what `evaluate()` callers write: policy,
// policyOptions.temperature) is printed by the CLI under the command's own flag (--policy, --policy-opt
// temperature); a path inside another field, a name no flag has and a flag already are left as they are.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError } from "../../src/core/errors.js";
import { defineCommand, namedByFlag } from "../../src/cli/command.js";

const command = defineCommand({
  name: "try",
  summary: "a command for the test",
  schema: z.object({
    policy: z.string().describe("the policy"),
    policyOpt: z.array(z.string()).default([]).describe("policy options"),
    ks: z.string().optional().meta({ flag: "k" }).describe("the Ks"),
    base: z.string().optional().describe("the base"),
  }),
  run: () => Promise.resolve(0),
});

const named = (field: string, hint?: string): string =>
  namedByFlag(command, new ConfigError(field, "is wrong", hint)).message;

describe("namedByFlag", () => {
  it("names a config field by its flag, an option inside policyOptions after --policy-opt, and keeps the hint", () => {
    expect(named("policy", "use random")).toBe("--policy: is wrong\nHINT: use random");
    expect(named("ks")).toBe("--k: is wrong");
    expect(named("policyOptions.temperature")).toBe("--policy-opt temperature: is wrong");
  });

  it("leaves a path inside another field, a field without a flag and a flag as they are", () => {
    expect(named("base.options.temperature")).toBe("base.options.temperature: is wrong");
    expect(named("vault.maxLocks")).toBe("vault.maxLocks: is wrong");
    expect(named("tasks[2]")).toBe("tasks[2]: is wrong");
    expect(named("--policy")).toBe("--policy: is wrong");
  });
});
