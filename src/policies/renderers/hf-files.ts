// The files of a Hugging Face model's tokenizer, read from a local folder (`--renderer hf:DIR`): tokenizer.json
// (the tokenizer: model, pre-tokenizer, decoder, added tokens), tokenizer_config.json (eos_token and the other
// special tokens, and the chat template), chat_template.jinja (a template kept in its own file; it takes
// precedence over the config's) and generation_config.json (optional: its eos_token_id adds stop tokens, as
// instruct models list their end-of-turn token there). Nothing downloads: the user copies these files from the
// model's repository. Every problem is a ConfigError naming the `renderer` field, raised before any work.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, thrownMessage } from "../../core/errors.js";
import type { JsonObject } from "../../core/json.js";

export const HF_PREFIX = "hf:";

/** What a renderer reads from a model's tokenizer folder. */
export interface HfTokenizerFiles {
  readonly dir: string;
  /** tokenizer.json as parsed. */
  readonly tokenizer: JsonObject;
  /** tokenizer_config.json as parsed. */
  readonly config: JsonObject;
  /** The chat template: chat_template.jinja when present, else the config's chat_template ("default" of a named list). */
  readonly chatTemplate: string;
  /** generation_config.json's eos_token_id (one id or a list), [] without the file. */
  readonly generationEosIds: readonly number[];
}

/** The folder of an "hf:DIR" renderer name, undefined for any other name. */
export function hfRendererDir(name: string): string | undefined {
  return name.startsWith(HF_PREFIX) ? name.slice(HF_PREFIX.length) : undefined;
}

/** A problem with the folder (missing files), or undefined when it holds what a renderer needs. Checked by the train config. */
export function hfDirProblem(dir: string): string | undefined {
  if (dir === "") return "hf: needs a folder (hf:DIR)";
  if (!existsSync(dir)) return `${dir} does not exist`;
  for (const file of ["tokenizer.json", "tokenizer_config.json"])
    if (!existsSync(join(dir, file))) return `${dir} holds no ${file}`;
  return undefined;
}

function readJson(path: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(
      "renderer",
      `cannot read ${path}: ${thrownMessage(error)}`,
      "copy the file again from the model's repository",
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new ConfigError("renderer", `${path} is not a JSON object`);
  return value as JsonObject;
}

/** The template of tokenizer_config's chat_template: a string, or a list of {name, template} (the "default" one). */
function configTemplate(config: JsonObject, path: string): string {
  const value = config.chat_template;
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    const named = value.find(
      (entry): entry is JsonObject =>
        entry !== null &&
        typeof entry === "object" &&
        !Array.isArray(entry) &&
        (entry as JsonObject).name === "default",
    );
    if (named !== undefined && typeof named.template === "string") return named.template;
  }
  throw new ConfigError(
    "renderer",
    `${path} has no chat_template (and there is no chat_template.jinja beside it)`,
    "copy chat_template.jinja or a tokenizer_config.json with chat_template from the model's repository",
  );
}

function generationEosIds(dir: string): number[] {
  const path = join(dir, "generation_config.json");
  if (!existsSync(path)) return [];
  const value = readJson(path).eos_token_id;
  const ids = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  if (!ids.every((id): id is number => typeof id === "number" && Number.isInteger(id) && id >= 0))
    throw new ConfigError("renderer", `${path}: eos_token_id must be a token id or a list of them`);
  return ids;
}

/** Read a tokenizer folder; a missing or unreadable file is a ConfigError naming the `renderer` field. */
export function readHfFiles(dir: string): HfTokenizerFiles {
  const problem = hfDirProblem(dir);
  if (problem !== undefined)
    throw new ConfigError(
      "renderer",
      problem,
      "DIR must hold the model's tokenizer.json and tokenizer_config.json (copied locally: nothing downloads)",
    );
  const configPath = join(dir, "tokenizer_config.json");
  const config = readJson(configPath);
  const templatePath = join(dir, "chat_template.jinja");
  const chatTemplate = existsSync(templatePath)
    ? readFileSync(templatePath, "utf8")
    : configTemplate(config, configPath);
  return {
    dir,
    tokenizer: readJson(join(dir, "tokenizer.json")),
    config,
    chatTemplate,
    generationEosIds: generationEosIds(dir),
  };
}
