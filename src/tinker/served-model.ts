// What a Tinker server says of a base model before a session is opened on it: whether it serves the model (a server
// that lists none is taken at its word), and the model's context length, unless the user gave one. Both the trainer
// backend and the evaluation policy ask; a model it does not serve, or a context length nobody gives, is a
// ConfigError naming the field to fix.
import { ConfigError } from "../core/errors.js";
import type { TinkerClient } from "./client.js";
import * as api from "./operations.js";

/** The server's entry for `baseModel`; undefined when the server lists no models. */
export async function servedModel(client: TinkerClient, baseModel: string): Promise<api.ServerModel | undefined> {
  const models = await api.serverModels(client);
  const served = models.find((model) => model.name === baseModel);
  if (models.length > 0 && served === undefined)
    throw new ConfigError(
      "baseModel",
      `${client.baseUrl} does not serve ${baseModel}`,
      `it serves: ${models.map((model) => model.name).join(", ")}`,
    );
  return served;
}

/** The context length: `given`, else the server's for the model. */
export function contextLengthOf(
  baseModel: string,
  given: number | undefined,
  served: api.ServerModel | undefined,
): number {
  const contextLength = given ?? served?.maxContextLength;
  if (contextLength === undefined)
    throw new ConfigError(
      "contextLength",
      `the server does not say the context length of ${baseModel}`,
      "give it with --context-length",
    );
  return contextLength;
}
