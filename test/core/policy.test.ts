import { describe, expect, it } from "vitest";
import { PolicyReplyError, policyFromFunction, type PolicyContext } from "../../src/core/policy.js";

describe("policyFromFunction", () => {
  it("takes a string or a message with string content, and names anything else it gets", async () => {
    const context = {} as PolicyContext;
    expect((await policyFromFunction("a", () => "go").act([], context)).message).toEqual({
      role: "assistant",
      content: "go",
    });
    expect((await policyFromFunction("a", () => ({ role: "user", content: "go" })).act([], context)).message).toEqual({
      role: "assistant",
      content: "go",
    });
    const odd = policyFromFunction("odd", () => ({ answer: 3 }) as never);
    await expect(odd.act([], context)).rejects.toBeInstanceOf(PolicyReplyError);
    await expect(odd.act([], context)).rejects.toThrow(
      "policy odd returned a message whose content is undefined, not a string or a message with string content",
    );
    await expect(policyFromFunction("n", () => 7 as never).act([], context)).rejects.toThrow(
      "policy n returned a number (7)",
    );
  });
});
