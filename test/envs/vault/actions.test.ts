import { describe, expect, it } from "vitest";
import { parseVaultAction } from "../../../src/envs/vault/actions.js";

describe("vault actions", () => {
  it("reads a digit as entering that code, bare, tagged or spelled out", () => {
    for (const reply of [
      "7",
      " 7 ",
      "<answer>7</answer>",
      "7?",
      "Enter 7",
      "try 7",
      "enter code 7",
      "code 7",
      "**7**",
      "I think... <answer>7.</answer>",
    ])
      expect(parseVaultAction(reply)).toBe("7");
    expect(parseVaultAction("0")).toBe("0");
  });

  it("reads check and its aliases", () => {
    for (const reply of [
      "check",
      "CHECK",
      "<answer>Check</answer>",
      "inspect",
      "verify",
      "check lock",
      "check the code",
      "check this hint",
    ])
      expect(parseVaultAction(reply)).toBe("check");
  });

  it("reads nothing else as an action", () => {
    for (const reply of ["", "12", "07", "seven", "check 7", "enter", "7 8", "<answer></answer>", "x".repeat(300)])
      expect(parseVaultAction(reply)).toBeNull();
  });
});
