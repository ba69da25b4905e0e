// The log-probs of a prompt's tokens under the model, for vLLM's prompt_logprobs (chat and text completions) and
// for text completions' echo with logprobs: position i > 0 holds log p(token i | tokens before it) and the k most
// likely tokens there; position 0 has none (nothing comes before it).
//
//   a token's own log-prob   the model's scoring of the whole prompt (model.logprobs): the number echo's
//                            token_logprobs report too, so chat's prompt_logprobs equal completions' echo for the
//                            same prompt tokens, bit for bit
//   its rank, the k best     the model's distribution at each position, read one position per model call in one
//                            KV-cache session (each call prefills one more prompt token), log-probs at
//                            temperature 1; rank = 1 + the tokens more likely than it (vLLM's)
//
// vLLM's JSON: prompt_logprobs = [null, {"<token id>": {logprob, rank, decoded_token}, ...}, ...], the prompt token
// first, then the k best (a token among both once).
import type { Json, JsonObject } from "../core/json.js";
import type { TinyModel } from "../nn/model.js";
import { finiteLogprob } from "./response.js";
import type { Vocabulary } from "./vocabulary.js";

export interface PromptPosition {
  readonly token: number;
  /** log p(token | the tokens before it), by scoring. */
  readonly logprob: number;
  /** 1 + how many tokens are more likely here. */
  readonly rank: number;
  /** The k most likely tokens here, most likely first. */
  readonly best: readonly { readonly token: number; readonly logprob: number }[];
}

export type PromptScorer = Pick<TinyModel, "logprobs" | "sample" | "openSession" | "config">;

/** Positions 1.. of the prompt (position 0 has none), with the k best tokens at each. */
export async function scorePrompt(
  model: PromptScorer,
  tokens: readonly number[],
  k: number,
): Promise<PromptPosition[]> {
  if (tokens.length < 2) return [];
  const [scored] = await model.logprobs([tokens]);
  const session = model.openSession();
  const vocab = model.config.vocabSize;
  try {
    const out: PromptPosition[] = [];
    for (let i = 1; i < tokens.length; i++) {
      const [step] = await model.sample([tokens.slice(0, i)], {
        maxNewTokens: 1,
        temperature: 1,
        seeds: [0],
        topLogprobs: vocab,
        stopTokens: [],
        sessions: [session],
      });
      const all = step!.alternatives![0]!;
      const own = all.find((alt) => alt.token === tokens[i])!.logprob;
      out.push({
        token: tokens[i]!,
        logprob: scored![i - 1]!,
        rank: 1 + all.filter((alt) => alt.logprob > own).length,
        best: all.slice(0, k).map((alt) => ({ token: alt.token, logprob: alt.logprob })),
      });
    }
    return out;
  } finally {
    session.close();
  }
}

/** vLLM's prompt_logprobs JSON of the scored positions. */
export function promptLogprobsJson(positions: readonly PromptPosition[], vocabulary: Vocabulary): Json[] {
  const entry = (logprob: number, rank: number, token: number): JsonObject => ({
    logprob: finiteLogprob(logprob),
    rank,
    decoded_token: vocabulary.display(token),
  });
  return [
    null,
    ...positions.map((position): Json => {
      const out: Record<string, JsonObject> = {
        [String(position.token)]: entry(position.logprob, position.rank, position.token),
      };
      position.best.forEach((alt, i) => {
        out[String(alt.token)] ??= entry(alt.logprob, i + 1, alt.token);
      });
      return out;
    }),
  ];
}
