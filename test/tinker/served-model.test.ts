// What a server says of a base model: served or refused by name (a server listing none is taken at its word), and
// the context length given or the server's, refused when neither says it.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { contextLengthOf, servedModel } from "../../src/tinker/served-model.js";
import { fakeClient } from "./fake-client.js";

const serving = (models: readonly { model_name: string; max_context_length?: number }[]) =>
  fakeClient((path) => {
    expect(path).toBe("/api/v1/get_server_capabilities");
    return { supported_models: models };
  });

describe("servedModel", () => {
  it("finds the base model, and refuses one the server does not serve, naming what it serves", async () => {
    const client = serving([{ model_name: "a", max_context_length: 512 }, { model_name: "b" }]);
    expect(await servedModel(client, "a")).toEqual({ name: "a", maxContextLength: 512 });
    const refusal = await servedModel(client, "c").catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).message).toContain("does not serve c");
    expect((refusal as ConfigError).hint).toBe("it serves: a, b");
  });

  it("takes a server that lists no models at its word", async () => {
    expect(await servedModel(serving([]), "anything")).toBeUndefined();
  });
});

describe("contextLengthOf", () => {
  it("takes the given length over the server's, the server's otherwise, and refuses when neither says it", () => {
    expect(contextLengthOf("a", 256, { name: "a", maxContextLength: 512 })).toBe(256);
    expect(contextLengthOf("a", undefined, { name: "a", maxContextLength: 512 })).toBe(512);
    expect(() => contextLengthOf("a", undefined, { name: "a", maxContextLength: undefined })).toThrow(
      /does not say the context length of a/,
    );
    expect(() => contextLengthOf("a", undefined, undefined)).toThrow(ConfigError);
  });
});
