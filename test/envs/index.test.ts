// The envs as the package exports them: the registry and the constructors at the root (envs/index.ts), the rest of
// each env in its entry ("budgetrl/envs/<name>", <name>/entry.ts).
import { describe, expect, it } from "vitest";
import * as envs from "../../src/envs/index.js";
import * as frozenlakeEntry from "../../src/envs/frozenlake/entry.js";
import * as sokobanEntry from "../../src/envs/sokoban/entry.js";
import * as vaultEntry from "../../src/envs/vault/entry.js";

describe("envs public API", () => {
  it("exports the constructors and the registry", () => {
    for (const name of [
      "sokoban",
      "frozenlake",
      "hanoi",
      "vault",
      "thinice",
      "bfcl",
      "createEnv",
      "envConfigHelp",
      "ENV_NAMES",
      "defineEnv",
    ]) {
      expect(envs).toHaveProperty(name);
    }
    expect(envs.sokoban().spec.name).toBe("sokoban");
  });

  it("exports each env's task formats and measurements from its entry, with the same constructor", () => {
    expect(sokobanEntry).toHaveProperty("parseLevels");
    expect(frozenlakeEntry).toHaveProperty("parseMaps");
    expect(frozenlakeEntry).toHaveProperty("NAMED_MAPS");
    for (const name of ["parseVaultTasks", "distinctVaultTasks", "measureVaultTradeoff"]) {
      expect(vaultEntry).toHaveProperty(name);
    }
    expect(sokobanEntry.sokoban).toBe(envs.sokoban);
    expect(vaultEntry.vault().spec.name).toBe("vault");
  });
});
