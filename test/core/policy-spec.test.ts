// Policy specs as data: every kind decoded by the config field into its typed form, written back by its label, and
// the label decoded again to the same spec; malformed specs of a known kind refused naming the field.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseConfig } from "../../src/core/config.js";
import {
  isPolicySpec,
  policySpecField,
  policySpecKindName,
  policySpecLabel,
  readPolicySpec,
  type PolicySpec,
} from "../../src/core/policy-spec.js";

describe("policy specs", () => {
  it("decodes every kind into its fields and round-trips through the label", () => {
    const cases: [string, PolicySpec][] = [
      ["random", { kind: "random" }],
      ["oracle", { kind: "oracle", horizon: "turns-left" }],
      ["oracle:unbounded", { kind: "oracle", horizon: "unbounded" }],
      ["noisy-oracle:0.2", { kind: "noisy-oracle", epsilon: 0.2 }],
      ["replay", { kind: "replay" }],
      ["replay:runs/script.json", { kind: "replay", file: "runs/script.json" }],
      ["tiny:runs/x/checkpoints/step-000200", { kind: "tiny", checkpoint: "runs/x/checkpoints/step-000200" }],
      ["tiny", { kind: "tiny" }],
      ["openai:Qwen/Qwen3-8B", { kind: "openai", model: "Qwen/Qwen3-8B" }],
      ["openai:qwen3:8b", { kind: "openai", model: "qwen3:8b" }],
      ["tinker:Qwen/Qwen3-4B", { kind: "tinker", baseModel: "Qwen/Qwen3-4B" }],
      [
        "tinker:Qwen/Qwen3-4B@study/bfcl/rl/grpo-full/checkpoints/step-000100",
        { kind: "tinker", baseModel: "Qwen/Qwen3-4B", checkpoint: "study/bfcl/rl/grpo-full/checkpoints/step-000100" },
      ],
      [
        "tinker:tinker://run-1/sampler_weights/s@2",
        { kind: "tinker", checkpoint: "tinker://run-1/sampler_weights/s@2" },
      ],
      [
        "tinker:Qwen/Qwen3-4B@tinker://run-1/w",
        { kind: "tinker", baseModel: "Qwen/Qwen3-4B", checkpoint: "tinker://run-1/w" },
      ],
      ["tinker", { kind: "tinker" }],
      ["mine", { kind: "other", name: "mine" }],
      ["mine:a:b", { kind: "other", name: "mine", argument: "a:b" }],
    ];
    for (const [text, spec] of cases) {
      expect(readPolicySpec(text)).toEqual(spec);
      expect(policySpecLabel(spec)).toBe(text);
      expect(readPolicySpec(policySpecLabel(spec))).toEqual(spec);
      // A spec handed over as data decodes to itself.
      expect(readPolicySpec(spec)).toEqual(spec);
    }
    expect(policySpecKindName({ kind: "other", name: "mine" })).toBe("mine");
    expect(policySpecKindName({ kind: "noisy-oracle", epsilon: 0.1 })).toBe("noisy-oracle");
    expect([
      isPolicySpec({ kind: "random" }),
      isPolicySpec({ name: "p", act: () => "" }),
      isPolicySpec("random"),
    ]).toEqual([true, false, false]);
  });

  it("refuses malformed specs of known kinds, naming the field", () => {
    expect(() => readPolicySpec("tiny:", "base")).toThrow(/^base: tiny needs a checkpoint folder/);
    expect(() => readPolicySpec("openai")).toThrow(/^policy: openai needs a model name/);
    expect(() => readPolicySpec("noisy-oracle:x")).toThrow(/noisy-oracle needs a probability/);
    expect(() => readPolicySpec("oracle:later")).toThrow(/unknown oracle variant "later"/);
    expect(() => readPolicySpec("tinker:@ckpt")).toThrow(/expected tinker:BASE@CHECKPOINT/);
    expect(() => readPolicySpec("tinker:")).toThrow(/tinker needs a base model/);
    expect(() => readPolicySpec("random:1")).toThrow(/random takes no argument/);
    expect(() => readPolicySpec("")).toThrow(/names no policy/);
    expect(() => readPolicySpec({ kind: "noisy-oracle", epsilon: Number.NaN })).toThrow(/needs a probability/);
  });

  it("is a config field: decoded once, stored as its label", () => {
    const schema = z.object({ policy: policySpecField() });
    const config = parseConfig(schema, { policy: "oracle:unbounded" });
    expect(config.policy).toEqual({ kind: "oracle", horizon: "unbounded" });
    expect(z.encode(schema, config)).toEqual({ policy: "oracle:unbounded" });
    expect(() => parseConfig(schema, { policy: "openai:" })).toThrow(/^policy: openai needs a model name/);
  });
});
