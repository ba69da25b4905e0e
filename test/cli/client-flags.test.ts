// The openai client flags of `budgetrl eval` and `budgetrl reproduce`: one per clientOptionsSchema key, generated from
// the schema (its descriptions, after the model they are for, defaults and validation), turned into the client options
// given, and given again by a resume command; the rows of a tinker: policy's service (eval's only) beside them.
import { describe, expect, it } from "vitest";
import {
  CLIENT_FLAG_KEYS,
  clientFlagFields,
  clientFlagFieldsFor,
  clientOptionsOf,
  TINKER_FLAG_KEYS,
  tinkerFlagFields,
  tinkerFlagFieldsFor,
} from "../../src/cli/client-flags.js";
import { CLIENT_OPTION_FLAGS, clientOptionArgs, clientOptionsSchema } from "../../src/policies/openai/options.js";

describe("the openai client flags", () => {
  it("name every client option once", () => {
    expect(CLIENT_OPTION_FLAGS.map((row) => row.key).sort()).toEqual(Object.keys(clientOptionsSchema.shape).sort());
    expect(new Set(CLIENT_OPTION_FLAGS.map((row) => row.flag)).size).toBe(CLIENT_OPTION_FLAGS.length);
    expect(CLIENT_FLAG_KEYS).toEqual([
      "baseUrl",
      "apiKeyEnv",
      "requestConcurrency",
      "rpm",
      "requestTimeout",
      "retries",
      "retryBackoff",
      "retryMaxWait",
      "cache",
      "noCache",
    ]);
  });

  it("take their descriptions, defaults and validation from the schema", () => {
    expect(clientFlagFields.requestConcurrency.description).toBe(
      `openai: ${clientOptionsSchema.shape.concurrency.description} (default: 16)`,
    );
    expect(clientFlagFields.requestTimeout.safeParse(0).success).toBe(false);
    expect(clientFlagFields.requestTimeout.safeParse(1000).success).toBe(true);
    expect(clientFlagFields.baseUrl.safeParse("localhost").success).toBe(false);
    // reproduce's served base: the same fields, described for it.
    const base = clientFlagFieldsFor("openai base");
    expect(base.rpm.description).toBe(`openai base: ${clientOptionsSchema.shape.rpm.description} (default: 0)`);
    expect(base.noCache.description).toMatch(/^openai base: do not answer repeated requests/);
    expect(base.rpm.safeParse(-1).success).toBe(false);
    expect(Object.keys(base)).toEqual(CLIENT_FLAG_KEYS);
  });

  it("become the client options given, which a resume command gives again with the same flags", () => {
    expect(clientOptionsOf({ noCache: false })).toBeUndefined();
    const client = clientOptionsOf({
      baseUrl: "http://me:pw@gpu:8000/v1",
      requestConcurrency: 8,
      requestTimeout: 20000,
      cache: "/tmp/c",
      noCache: true,
    });
    expect(client).toEqual({
      baseUrl: "http://me:pw@gpu:8000/v1",
      concurrency: 8,
      timeoutMs: 20000,
      cacheDir: "/tmp/c",
      cache: false,
    });
    expect(clientOptionArgs(client)).toEqual([
      "--base-url",
      "http://me@gpu:8000/v1",
      "--request-concurrency",
      "8",
      "--request-timeout",
      "20000",
      "--cache",
      "/tmp/c",
      "--no-cache",
    ]);
  });

  it("have how Tinker is reached beside them, the same for every command, given again by a resume command", () => {
    expect(TINKER_FLAG_KEYS).toEqual([
      "tinkerUrl",
      "tinkerApiKeyEnv",
      "tinkerTimeout",
      "tinkerDeadline",
      "tinkerSamplingDeadline",
    ]);
    expect(tinkerFlagFieldsFor("tinker trainer").tinkerSamplingDeadline.description).toBe(
      `tinker trainer: ${clientOptionsSchema.shape.tinkerSamplingDeadline.description} (default: 7200000)`,
    );
    // The caps: an attempt of at most an hour, deadlines of at most a day.
    expect(tinkerFlagFields.tinkerTimeout.safeParse(3_600_001).success).toBe(false);
    expect(tinkerFlagFields.tinkerDeadline.safeParse(86_400_001).success).toBe(false);
    expect(tinkerFlagFields.tinkerDeadline.description).toBe(
      `tinker: ${clientOptionsSchema.shape.tinkerDeadline.description} (default: 300000)`,
    );
    expect(tinkerFlagFields.tinkerUrl.safeParse("localhost").success).toBe(false);
    const flags = { tinkerUrl: "http://me:pw@gpu:8000", tinkerDeadline: 0, requestConcurrency: 4 };
    // The openai client options leave these out unless asked for (a tinker: policy's, or a worker's jobs).
    expect(clientOptionsOf(flags)).toEqual({ concurrency: 4 });
    const client = clientOptionsOf(flags, true);
    expect(client).toEqual({ concurrency: 4, tinkerUrl: "http://me:pw@gpu:8000", tinkerDeadline: 0 });
    expect(clientOptionArgs(client)).toEqual([
      "--request-concurrency",
      "4",
      "--tinker-url",
      "http://me@gpu:8000/",
      "--tinker-deadline",
      "0",
    ]);
  });
});
