// Shared by the serve tests: a small checkpoint on disk (freshly initialised, a quick SFT on sokoban, or taught
// one reply), a served checkpoint, and raw HTTP calls (node:http, so that status, headers and bodies are seen as sent).
import { writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { createModel } from "../../src/nn/model.js";
import { saveCheckpoint } from "../../src/nn/checkpoint.js";
import { encodeText, END } from "../../src/nn/tokenizer.js";
import { renderPrompt } from "../../src/policies/tiny/render.js";
import { runSft } from "../../src/rl/sft-run.js";

/** Large enough for a sokoban observation (about 130 tokens) with a 16-token answer. */
export const SMALL_MODEL = { layers: 1, dModel: 32, heads: 2, hiddenSize: 64, contextLength: 192 } as const;
/** The small model with room for long structured replies. */
export const WIDE_MODEL = { ...SMALL_MODEL, contextLength: 1536 } as const;

/** A freshly initialised checkpoint with its policy.json (the equality tests do not need a good model; a history
 * other than "segments" makes a checkpoint serve and tiny: refuse). */
export async function freshCheckpoint(
  dir: string,
  settings: { readonly maxNewTokens: number; readonly history: string },
  seed = 1,
  config: typeof SMALL_MODEL | typeof WIDE_MODEL = SMALL_MODEL,
): Promise<string> {
  const model = await createModel({ config, seed });
  await saveCheckpoint(model, dir);
  model.dispose();
  writeFileSync(join(dir, "policy.json"), `${JSON.stringify(settings)}\n`);
  return dir;
}

/** A checkpoint trained for a few seconds on a noisy oracle's sokoban replies: mostly moves, some garbage. */
export async function sokobanCheckpoint(dir: string): Promise<string> {
  await runSft({
    out: dir,
    config: {
      env: "sokoban",
      policy: "noisy-oracle:0.3",
      tasks: 30,
      samples: 2,
      modelConfig: SMALL_MODEL,
      steps: 40,
      batchSize: 8,
      warmupSteps: 2,
      maxNewTokens: 16,
      learningRate: 1e-2,
    },
  });
  return dir;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** One HTTP request to a URL on a connection of its own, its body sent as given (in parts: chunked, no length). */
export function rawRequest(
  url: string,
  method: string,
  body?: string | Buffer | readonly Buffer[],
  headers: Readonly<Record<string, string>> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method,
        agent: false,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    call.on("error", reject);
    if (Array.isArray(body)) {
      for (const part of body as readonly Buffer[]) call.write(part);
      call.end();
    } else call.end(body);
  });
}

/** POST a JSON body to {url}/chat/completions. */
export async function postChat(url: string, body: unknown): Promise<RawResponse & { readonly json: unknown }> {
  const response = await rawRequest(`${url}/chat/completions`, "POST", JSON.stringify(body));
  let json: unknown;
  try {
    json = JSON.parse(response.text);
  } catch {
    json = undefined;
  }
  return { ...response, json };
}

export const GRID = "######\n##_._#\n##@$_#\n###__#\n####_#\n######\nTurn 1 of 4: 4 turns left.";

/**
 * A checkpoint taught, by a few hundred steps on one conversation, to answer `question` with `reply` (e.g. a
 * Hermes tool call): the served model's own greedy reply, not a scripted one. The prompt is the tiny policy's
 * rendering of [user: question] (what serve samples from).
 */
export async function taughtCheckpoint(dir: string, question: string, reply: string, steps = 300): Promise<string> {
  const model = await createModel({ config: SMALL_MODEL, seed: 3, optimizer: { learningRate: 1e-2 } });
  const prompt = renderPrompt([{ role: "user", content: question }], SMALL_MODEL.contextLength);
  const sequence = [...prompt, ...encodeText(reply), END];
  const tokens = Int32Array.from(sequence.slice(0, -1));
  const targets = Int32Array.from(sequence.slice(1), (token, i) => (i + 1 >= prompt.length ? token : -1));
  for (let step = 0; step < steps; step++) {
    await model.lossAndGradient({ tokens, targets, batchSize: 1, seqLen: tokens.length });
    model.step();
  }
  await saveCheckpoint(model, dir);
  model.dispose();
  writeFileSync(join(dir, "policy.json"), `${JSON.stringify({ maxNewTokens: 16, history: "segments" })}\n`);
  return dir;
}
