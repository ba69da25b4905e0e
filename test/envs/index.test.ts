import { describe, expect, it } from "vitest";
import * as envs from "../../src/envs/index.js";

describe("envs public API", () => {
  it("exports the constructors, the registry and the shared helpers", () => {
    for (const name of [
      "sokoban",
      "frozenlake",
      "hanoi",
      "vault",
      "thinice",
      "parseVaultTasks",
      "distinctVaultTasks",
      "measureVaultTradeoff",
      "createEnv",
      "envConfigHelp",
      "ENV_NAMES",
      "parseLevels",
      "parseMaps",
      "NAMED_MAPS",
      "parseDirection",
      "normalizeAnswer",
      "defineEnv",
      "shortestPathAnswer",
      "checkTurnsLeft",
    ]) {
      expect(envs).toHaveProperty(name);
    }
    expect(envs.sokoban().spec.name).toBe("sokoban");
  });
});
