// Policy specs as data: every kind parsed into its typed form, written back by its label, and the label read
// again to the same spec; malformed specs of a known kind refused naming the field.
import { describe, expect, it } from "vitest";
import { parsePolicySpec, policySpecKindName, policySpecLabel, type PolicySpec } from "../../src/core/policy-spec.js";

describe("policy specs", () => {
  it("parses every kind into its fields and round-trips through the label", () => {
    const cases: [string, PolicySpec][] = [
      ["random", { kind: "random" }],
      ["oracle", { kind: "oracle", horizon: "turns-left" }],
      ["oracle:unbounded", { kind: "oracle", horizon: "unbounded" }],
      ["noisy-oracle:0.2", { kind: "noisy-oracle", epsilon: 0.2 }],
      ["replay", { kind: "replay" }],
      ["replay:runs/script.json", { kind: "replay", file: "runs/script.json" }],
      ["tiny:runs/x/checkpoints/step-000200", { kind: "tiny", checkpoint: "runs/x/checkpoints/step-000200" }],
      ["openai:Qwen/Qwen3-8B", { kind: "openai", model: "Qwen/Qwen3-8B" }],
      ["openai:qwen3:8b", { kind: "openai", model: "qwen3:8b" }],
      ["tinker:Qwen/Qwen3-4B", { kind: "tinker", baseModel: "Qwen/Qwen3-4B" }],
      [
        "tinker:Qwen/Qwen3-4B@study/bfcl/rl/grpo-full/checkpoints/step-000100",
        { kind: "tinker", baseModel: "Qwen/Qwen3-4B", checkpoint: "study/bfcl/rl/grpo-full/checkpoints/step-000100" },
      ],
      ["mine", { kind: "other", name: "mine" }],
      ["mine:a:b", { kind: "other", name: "mine", argument: "a:b" }],
    ];
    for (const [text, spec] of cases) {
      expect(parsePolicySpec(text)).toEqual(spec);
      expect(policySpecLabel(spec)).toBe(text);
      expect(parsePolicySpec(policySpecLabel(spec))).toEqual(spec);
    }
    expect(policySpecKindName({ kind: "other", name: "mine" })).toBe("mine");
    expect(policySpecKindName({ kind: "noisy-oracle", epsilon: 0.1 })).toBe("noisy-oracle");
  });

  it("refuses malformed specs of known kinds, naming the field", () => {
    expect(() => parsePolicySpec("tiny:", "base")).toThrow(/^base: tiny needs a checkpoint folder/);
    expect(() => parsePolicySpec("openai")).toThrow(/^policy: openai needs a model name/);
    expect(() => parsePolicySpec("noisy-oracle:x")).toThrow(/noisy-oracle needs a probability/);
    expect(() => parsePolicySpec("oracle:later")).toThrow(/unknown oracle variant "later"/);
    expect(() => parsePolicySpec("tinker:@ckpt")).toThrow(/expected tinker:BASE@CHECKPOINT/);
    expect(() => parsePolicySpec("random:1")).toThrow(/random takes no argument/);
    expect(() => parsePolicySpec("")).toThrow(/names no policy/);
  });
});
