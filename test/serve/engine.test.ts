// The sampling engine gives the same choices token by token (a stream, a constraint) as in one model call, bit
// for bit: tokens, log-probs, alternatives, finish and stop, with stop strings, stop tokens, min_tokens,
// ignore_eos, n choices, greedy or not, top-k and min-p, penalties (which read the reply so far across calls); a listener hears every token once, the last one with its choice; a
// constraint's choices are complete JSON within max_tokens.
import { describe, expect, it } from "vitest";
import { createModel } from "../../src/nn/model.js";
import { encodeText, END } from "../../src/nn/tokenizer.js";
import {
  choiceSeed,
  createSamplingEngine,
  type GenerationRequest,
  type SampledChoice,
} from "../../src/serve/engine.js";
import { createJsonConstraint } from "../../src/serve/json-constraint.js";
import { schemaShape } from "../../src/serve/schema-shape.js";
import { stopRule } from "../../src/serve/stop.js";

const config = { vocabSize: 260, contextLength: 64, layers: 1, dModel: 16, heads: 2, hiddenSize: 24 };
const engineSettings = { maxQueue: 64, logprobsMode: "raw" as const, maxBatch: 64, sessions: 8 };

/** A stop rule whose one stop string is these tokens (matched as sampled). */
const stopTokens = (tokens: readonly number[], fields: Parameters<typeof stopRule>[0] = {}) => ({
  ...stopRule(fields),
  strings: [{ text: "<stop>", tokens }],
});
/** Two consecutive byte tokens of a reply. */
const bytePair = (tokens: readonly number[]): number[] => {
  const at = tokens.findIndex(
    (token, i) => i >= 2 && token < 256 && tokens[i + 1] !== undefined && tokens[i + 1]! < 256,
  );
  return tokens.slice(at, at + 2);
};

function request(overrides: Partial<GenerationRequest>): GenerationRequest {
  return {
    prompt: encodeText("tell me"),
    keepSessions: true,
    seeds: [1, 2, 3].map((j) => choiceSeed(7, j)),
    maxTokens: 30,
    temperature: 1,
    topP: 1,
    topLogprobs: 2,
    stop: stopRule({}),
    stepwise: false,
    ...overrides,
  };
}

describe("sampling engine", () => {
  it("samples the same choices token by token as in one call", async () => {
    const model = await createModel({ config, seed: 21 });
    const engine = createSamplingEngine(model, engineSettings);
    // Stops that the free replies of these seeds meet: a byte of one reply as a stop token, two bytes as a string.
    const free = await engine.generate(request({ stop: stopRule({ ignoreEos: true }) }));
    const sample = free[0]!.tokens;
    const cases: Partial<GenerationRequest>[] = [
      {},
      { temperature: 0 },
      { temperature: 0.7, topP: 0.8 },
      { stop: stopTokens(bytePair(sample)) },
      { stop: stopRule({ stop: ["\u0000never"], stopTokenIds: [sample[4]!] }) },
      { stop: stopRule({ stopTokenIds: [sample[1]!], minTokens: 3, includeStopStrInOutput: true }) },
      { stop: stopRule({ ignoreEos: true }), maxTokens: 60 },
      { topK: 5, minP: 0.02, temperature: 0.9 },
      {
        stop: stopRule({ ignoreEos: true }),
        penalties: { repetition: 1.3, presence: 0.5, frequency: 0.3, logitBias: [[sample[0]!, -5]] },
      },
    ];
    for (const overrides of cases) {
      const whole = await engine.generate(request(overrides));
      const heard: [number, number, boolean][] = [];
      const stepped = await engine.generate(request({ ...overrides, stepwise: true }), (choice, token, ended) =>
        heard.push([choice, token.token, ended !== undefined]),
      );
      expect(stepped).toEqual(whole);
      for (const choice of whole) {
        const mine = heard.filter(([j]) => j === choice.index);
        expect(mine.map(([, token]) => token)).toEqual(choice.tokens);
        expect(mine.map(([, , ended]) => ended)).toEqual(choice.tokens.map((_, i) => i === choice.tokens.length - 1));
      }
    }
    model.dispose();
  });

  it("reports where a reply stopped: the tokens of its text, and the stop string or token", async () => {
    const model = await createModel({ config, seed: 22 });
    const engine = createSamplingEngine(model, engineSettings);
    const [free] = await engine.generate(request({ seeds: [5], stop: stopRule({ ignoreEos: true }) }));
    const pair = bytePair(free!.tokens);
    const [stopped] = await engine.generate(request({ seeds: [5], stop: stopTokens(pair, { ignoreEos: true }) }));
    const at = free!.tokens.findIndex((token, i) => token === pair[0] && free!.tokens[i + 1] === pair[1]);
    expect(stopped!.tokens).toEqual(free!.tokens.slice(0, at + 2));
    expect(stopped).toMatchObject({ finish: "stop", stop: { textTokens: at, reason: "<stop>" } });
    const [byToken] = await engine.generate(
      request({ seeds: [5], stop: stopRule({ stopTokenIds: [pair[0]!], ignoreEos: true }) }),
    );
    expect(byToken!.tokens).toEqual(free!.tokens.slice(0, free!.tokens.indexOf(pair[0]!) + 1));
    expect(byToken!.stop).toEqual({ textTokens: byToken!.tokens.length - 1, reason: pair[0] });
    const [long] = await engine.generate(request({ seeds: [5], maxTokens: 6, stop: stopRule({ ignoreEos: true }) }));
    expect(long).toMatchObject({ finish: "length", stop: undefined });
    expect(long!.tokens).toHaveLength(6);
    model.dispose();
  });

  it("decodes under a constraint: every choice a complete value of the schema, within max_tokens", async () => {
    const model = await createModel({ config, seed: 23 });
    const engine = createSamplingEngine(model, engineSettings);
    const shape = schemaShape({
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "string", enum: ["x", "yy"] } },
      required: ["a", "b"],
    });
    for (const maxTokens of [16, 24, 40]) {
      const choices: SampledChoice[] = await engine.generate(
        request({ maxTokens, stepwise: true, constraints: [0, 1, 2].map(() => createJsonConstraint(shape)) }),
      );
      for (const choice of choices) {
        expect(choice.tokens.at(-1)).toBe(END);
        expect(choice.tokens.length).toBeLessThanOrEqual(maxTokens);
        const value = JSON.parse(Buffer.from(choice.tokens.slice(0, -1)).toString("utf8")) as { a: number; b: string };
        expect(Object.keys(value).sort()).toEqual(["a", "b"]);
        expect(Number.isInteger(value.a)).toBe(true);
        expect(["x", "yy"]).toContain(value.b);
      }
    }
    model.dispose();
  });
});
