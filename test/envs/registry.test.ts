import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseConfig } from "../../src/core/config.js";
import { ConfigError } from "../../src/core/errors.js";
import {
  createEnv,
  ENV_DEFINITIONS,
  ENV_NAMES,
  envConfigHelp,
  envDefinition,
  envNameField,
  envOptions,
  isEnvName,
} from "../../src/envs/registry.js";

describe("env registry", () => {
  it("names the built-in envs", () => {
    expect(ENV_NAMES).toEqual(["sokoban", "frozenlake", "hanoi", "vault", "thinice", "bfcl"]);
    expect(isEnvName("hanoi")).toBe(true);
    expect(isEnvName("toString")).toBe(false);
  });

  it("gives configs an env field of the registry's names, refusing any other naming the field", () => {
    const schema = z.object({ env: envNameField("environment") });
    expect(parseConfig(schema, { env: "vault" }).env).toBe("vault");
    expect(schema.shape.env.description).toBe("environment");
    expect(() => parseConfig(schema, { env: "chess" })).toThrow(
      /^env: unknown env "chess" \(use one of sokoban, frozenlake, hanoi, vault, thinice, bfcl\)$/,
    );
    expect(() => parseConfig(schema, { env: 3 })).toThrow(/^env: /);
  });

  it("builds envs from option records, typed or as strings", () => {
    const env = createEnv("sokoban", { boxes: "2", width: 7 });
    expect(env.spec.name).toBe("sokoban");
    expect(env.spec.config).toMatchObject({ boxes: 2, width: 7, height: 6 });
    expect(createEnv("frozenlake", { slippery: "true", map: "8x8" }).spec.config).toMatchObject({
      slippery: true,
      map: "8x8",
    });
    expect(createEnv("hanoi").spec.config).toEqual({ disks: 3, randomStart: false, referenceFactor: 4 });
  });

  it("refuses unknown envs and bad options before building anything, naming them", () => {
    const error = (() => {
      try {
        createEnv("chess", {});
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).field).toBe("env");
    expect((error as ConfigError).message).toContain("use one of sokoban, frozenlake, hanoi, vault, thinice, bfcl");
    expect(() => createEnv("sokoban", { boxes: 0 })).toThrow("sokoban.boxes: expected an integer from 1 to 6");
    expect(() => createEnv("hanoi", { pegs: 4 })).toThrow("hanoi.pegs: unknown option");
    expect(() => envConfigHelp("chess")).toThrow(ConfigError);
  });

  it("lists every option of every env with its description and default", () => {
    for (const name of ENV_NAMES) {
      const options = envOptions(name);
      expect(options.map((option) => option.name)).toEqual(Object.keys(ENV_DEFINITIONS[name].schema.shape));
      const help = envConfigHelp(name);
      for (const option of options) {
        expect(option.description.length).toBeGreaterThan(10);
        expect(help).toContain(option.name);
        expect(help).toContain(option.description);
        expect(help).toContain(`default ${JSON.stringify(option.defaultValue)}`);
      }
    }
    expect(envOptions("sokoban").find((option) => option.name === "boxes")?.defaultValue).toBe(1);
    expect(envDefinition("hanoi").summary).toContain("2^n - 1");
  });
});
