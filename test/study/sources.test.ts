// A study's model sources as typed data: an openai base's sampling options read to their types once (`--base-opt`
// strings or typed values), stored in study.json with every default filled in and read back to the same typed options
// (the form stored before they were typed included), a bad stored option refused in one line naming it; the served
// base's client options (the reach) validated before any work, only those given kept.
import { describe, expect, it } from "vitest";
import { encodeStudyConfig, parseStudyConfig, studyConfig, type StudyChoice } from "../../src/study/config.js";
import { parseBaseOptions, parseBaseSource, parseStudyReach } from "../../src/study/sources.js";

const served: StudyChoice = {
  preset: "quick",
  env: "bfcl",
  trainer: { kind: "tinker", baseModel: "m" },
  base: { kind: "openai", model: "m", options: { seedScheme: "tiny", temperature: 0.5, extraBody: { top_k: 20 } } },
};

/** The base of a served study's study.json as it was written before the options were typed (the same today). */
const STORED_BASE = {
  kind: "openai",
  model: "m",
  options: {
    temperature: 0.5,
    topP: 1,
    maxTokens: 8,
    seed: 0,
    n: 1,
    seedScheme: "tiny",
    logprobs: false,
    topLogprobs: 0,
    tokenIds: false,
    extraBody: { top_k: 20 },
  },
};

/** A served study's stored config with another base. */
function storedWith(base: unknown): unknown {
  return { ...(encodeStudyConfig(studyConfig(served)) as object), base };
}

describe("study sources", () => {
  it("read --base-opt values to their types, keeping only those given, and name a bad one as base.options", () => {
    expect(parseBaseOptions({ temperature: "0.5", logprobs: "true", extraBody: '{"top_k": 20}' })).toEqual({
      temperature: 0.5,
      logprobs: true,
      extraBody: { top_k: 20 },
    });
    expect(parseBaseSource("openai:Qwen/Qwen3-4B", parseBaseOptions({ maxTokens: "256" }))).toEqual({
      kind: "openai",
      model: "Qwen/Qwen3-4B",
      options: { maxTokens: 256 },
    });
    expect(() => parseBaseOptions({ temperature: "9" })).toThrow(/^base\.options\.temperature: expected a number/);
    expect(() => parseBaseOptions({ topK: "20" })).toThrow(/^base\.options\.topK: unknown option/);
    expect(() => parseBaseSource("sft", { temperature: 0.5 })).toThrow(/^baseOpt: sampling options are for an openai/);
  });

  it("store an openai base's options filled in, and read the stored form back to the same typed options", () => {
    const config = studyConfig(served);
    expect(config.base).toEqual(STORED_BASE);
    const stored = encodeStudyConfig(config) as { base: unknown };
    expect(JSON.stringify(stored.base)).toBe(JSON.stringify(STORED_BASE));
    const read = parseStudyConfig(JSON.parse(JSON.stringify(stored)));
    expect(read.base).toEqual(config.base);
    expect(JSON.stringify(encodeStudyConfig(read))).toBe(JSON.stringify(stored));
    // Stored without options (a library call's config): the schema's defaults, as eval would fill them in.
    expect(parseStudyConfig(storedWith({ kind: "openai", model: "m" })).base).toMatchObject({
      options: { temperature: 1, n: 1, extraBody: {} },
    });
  });

  it("refuse a stored option the schema does not know, or a bad stored value, in one line naming it", () => {
    const refused: [unknown, RegExp][] = [
      [{ ...STORED_BASE, options: { ...STORED_BASE.options, topK: 20 } }, /^base\.options\.topK: unknown option/],
      [{ ...STORED_BASE, options: { ...STORED_BASE.options, temperature: 9 } }, /^base\.options\.temperature: /],
      [{ ...STORED_BASE, options: { ...STORED_BASE.options, n: 2 } }, /^base\.options\.seedScheme: "tiny" sends/],
      [{ ...STORED_BASE, options: "temperature=0.5" }, /^base\.options: /],
    ];
    for (const [base, pattern] of refused) {
      let message = "";
      try {
        parseStudyConfig(storedWith(base));
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(pattern);
      expect(message).not.toContain("\n");
    }
  });

  it("validate the served base's client options before any work, keeping only those given", () => {
    expect(parseStudyReach(undefined)).toEqual({});
    const tinker = { baseUrl: "http://127.0.0.1:9/" };
    expect(parseStudyReach({ tinker })).toEqual({ tinker });
    expect(
      parseStudyReach({ openai: { baseUrl: "http://127.0.0.1:8000/v1", rpm: 600, cache: false }, tinker }),
    ).toEqual({ openai: { baseUrl: "http://127.0.0.1:8000/v1", rpm: 600, cache: false }, tinker });
    expect(() => parseStudyReach({ openai: { rpm: -1 } })).toThrow(/^openai\.rpm: expected an integer/);
    expect(() => parseStudyReach({ openai: { baseUrl: "localhost" } })).toThrow(/^openai\.baseUrl: expected a URL/);
  });
});
