// The schemas zod users write, through the real clients' helpers against `budgetrl serve` over loopback HTTP: the
// openai client's zodResponseFormat (.parse), the AI SDK's generateObject and LangChain's withStructuredOutput,
// with email, uuid, datetime, url, regex, number bounds and a recursive type; every reply parses with the same zod
// schema. guided_regex and a small guided_grammar through the openai client are honoured.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { generateObject } from "ai";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { serveCheckpoint, type Serving } from "../../src/serve/serve.js";
import { freshCheckpoint, WIDE_MODEL } from "./helpers.js";

interface Tree {
  label: string;
  children: Tree[];
}
const Node: z.ZodType<Tree> = z.object({ label: z.string().max(6), children: z.array(z.lazy(() => Node)).max(2) });
const Profile = z.object({
  email: z.email(),
  id: z.uuid(),
  at: z.iso.datetime(),
  site: z.url(),
  code: z.string().regex(/^[A-Z]{3}-\d{2}$/),
  score: z.number().min(0).max(1),
  stars: z.int().min(1).max(5),
  weight: z.number().positive(),
  tree: Node,
});

let serving: Serving;
let client: OpenAI;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-serve-schemas-"));
  const ckpt = await freshCheckpoint(dir, { maxNewTokens: 900, history: "segments" }, 3, WIDE_MODEL);
  serving = await serveCheckpoint({ ckpt, port: 0, name: "wide" });
  client = new OpenAI({ baseURL: serving.url, apiKey: "EMPTY", maxRetries: 0 });
}, 60_000);
afterAll(async () => {
  await serving.close();
});

describe("zod schemas through the client packages", () => {
  it("gives the openai client's .parse a value of the zod schema (zodResponseFormat)", async () => {
    for (const seed of [1, 2]) {
      const completion = await client.chat.completions.parse({
        model: "wide",
        messages: [{ role: "user", content: "a profile" }],
        response_format: zodResponseFormat(Profile, "profile"),
        max_tokens: 900,
        seed,
      });
      expect(completion.choices[0]!.finish_reason).toBe("stop");
      const parsed = completion.choices[0]!.message.parsed;
      expect(Profile.parse(parsed)).toEqual(parsed);
    }
  }, 60_000);

  it("gives the AI SDK's generateObject a value of the zod schema", async () => {
    const provider = createOpenAI({ baseURL: serving.url, apiKey: "EMPTY" });
    const { object } = await generateObject({
      model: provider.chat("wide"),
      schema: Profile,
      prompt: "a profile",
      maxOutputTokens: 900,
      seed: 3,
      maxRetries: 0,
    });
    expect(Profile.parse(object)).toEqual(object);
  }, 60_000);

  it("gives LangChain's withStructuredOutput a value of the zod schema", async () => {
    const model = new ChatOpenAI({
      model: "wide",
      apiKey: "EMPTY",
      configuration: { baseURL: serving.url },
      maxTokens: 900,
      maxRetries: 0,
    });
    const object = await model.withStructuredOutput(Profile).invoke("a profile");
    expect(Profile.parse(object)).toEqual(object);
  }, 60_000);

  it("cuts a constrained reply at max_tokens with finish_reason length and the text so far, as vLLM does", async () => {
    const completion = await client.chat.completions.create({
      model: "wide",
      messages: [{ role: "user", content: "a profile" }],
      response_format: zodResponseFormat(Profile, "profile"),
      max_tokens: 12,
      seed: 1,
    });
    expect(completion.choices[0]!.finish_reason).toBe("length");
    expect(completion.usage?.completion_tokens).toBe(12);
    expect(completion.choices[0]!.message.content).toMatch(/^\{"/);
  });

  it("honours guided_regex and a small guided_grammar (vLLM's fields, through the openai client)", async () => {
    const ask = async (extra: Record<string, unknown>, seed: number): Promise<string> => {
      const completion = await client.chat.completions.create({
        model: "wide",
        messages: [{ role: "user", content: "go" }],
        max_tokens: 60,
        seed,
        ...extra,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      expect(completion.choices[0]!.finish_reason).toBe("stop");
      return completion.choices[0]!.message.content ?? "";
    };
    for (const seed of [1, 2, 3]) {
      expect(await ask({ guided_regex: "[A-Z]{3}-\\d{2}(x|yz)?" }, seed)).toMatch(/^[A-Z]{3}-\d{2}(x|yz)?$/);
      const sum = await ask({ guided_grammar: 'root ::= num ("+" num)*\nnum ::= [1-9] [0-9]{0,2}' }, seed);
      expect(sum).toMatch(/^[1-9][0-9]{0,2}(\+[1-9][0-9]{0,2})*$/);
    }
  }, 60_000);
});
