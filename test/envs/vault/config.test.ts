import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../src/core/errors.js";
import { checkVaultConfig, vaultConfigSchema } from "../../../src/envs/vault/config.js";
import { vault } from "../../../src/envs/vault/index.js";
import { parseOptions } from "../../../src/core/options.js";

describe("vault config", () => {
  it("defaults to 2-12 locks, hints right 60% of the time, one or two uncertain locks beyond 1.25x's spare turns, reference 3x", () => {
    expect(parseOptions("vault", vaultConfigSchema, {})).toEqual({
      minLocks: 2,
      maxLocks: 12,
      reliability: 0.6,
      tightBudget: 1.25,
      minExtra: 1,
      maxExtra: 2,
      referenceFactor: 3,
    });
  });

  it("reads numbers written as text (the CLI) and refuses values out of range, naming the option", () => {
    expect(parseOptions("vault", vaultConfigSchema, { maxLocks: "5", reliability: "0.75" })).toMatchObject({
      maxLocks: 5,
      reliability: 0.75,
    });
    expect(() => parseOptions("vault", vaultConfigSchema, { minLocks: 0 })).toThrow(
      "vault.minLocks: expected an integer from 1 to 99",
    );
    expect(() => parseOptions("vault", vaultConfigSchema, { reliability: 0.1 })).toThrow(
      "vault.reliability: expected a number from 0.2 to 1",
    );
    expect(() => parseOptions("vault", vaultConfigSchema, { locks: 3 })).toThrow("vault.locks: unknown option");
  });

  it("refuses upside-down ranges when the env is built", () => {
    const defaults = parseOptions("vault", vaultConfigSchema, {});
    expect(checkVaultConfig(defaults)).toBe(defaults);
    expect(() => vault({ minLocks: 8, maxLocks: 4 })).toThrow(ConfigError);
    expect(() => vault({ minLocks: 8, maxLocks: 4 })).toThrow("vault.minLocks: is 8, above maxLocks (4)");
    expect(() => vault({ minExtra: 3, maxExtra: 2 })).toThrow("vault.minExtra: is 3, above maxExtra (2)");
  });
});
