// POST /v1/completions with stream: true: `text_completion` chunks token by token (stream.ts releases the text):
// per choice, the echoed prompt first (with its log-prob rows, and prompt_token_ids with return_token_ids), then
// per sampled token a chunk with the text it releases and its log-probs, then a chunk with the finish reason; the
// usage chunk when asked; [DONE]. The pieces add up to the non-streamed answer of the same seed.
import type { JsonObject } from "../core/json.js";
import { completionRows, offsetCounter } from "./completion-logprobs.js";
import {
  echoRows,
  prepareCompletions,
  promptLogprobsOf,
  promptText,
  scoredPrompts,
  type CompletionContext,
  type CompletionRequest,
} from "./completions.js";
import type { SampledChoice } from "./engine.js";
import { asHttpError } from "./errors.js";
import { usageChunk, usageOf, type ResponseMeta } from "./response.js";
import { createTextReleaser, type EventSink } from "./stream.js";

/** The completion streamed: per token its text (and log-probs), per choice a last chunk with its finish reason. */
export async function streamCompletions(
  context: CompletionContext,
  request: CompletionRequest,
  meta: ResponseMeta,
  sink: EventSink,
): Promise<void> {
  const prepared = prepareCompletions(context, request, true);
  const { sampling } = request;
  const { vocabulary } = context;
  const flags = { tokensAsIds: sampling.tokensAsIds, vocabulary };
  const n = sampling.n;
  const counts = new Array<number>(prepared.length * n).fill(0);
  const promptTokens = prepared.reduce((sum, one) => sum + one.prompt.tokens.length, 0);
  const usage = (): JsonObject => {
    if (sampling.continuousUsage)
      return {
        usage: usageOf(
          promptTokens,
          counts.reduce((a, b) => a + b, 0),
        ),
      };
    return sampling.includeUsage ? { usage: null } : {};
  };
  const chunk = (choice: JsonObject): JsonObject => ({
    id: meta.id,
    object: "text_completion",
    created: meta.created,
    model: meta.model,
    choices: [choice],
    ...usage(),
  });
  const scored = await scoredPrompts(context, request, prepared);
  prepared.forEach((one, i) => {
    const echoed = request.echo && scored !== undefined ? echoRows(context, request, one, scored[i]!) : null;
    for (let j = 0; j < n; j++) {
      const index = i * n + j;
      const extra: JsonObject = {
        ...(sampling.returnTokenIds ? { prompt_token_ids: [...one.prompt.tokens] } : {}),
        ...(sampling.promptLogprobs === undefined || scored === undefined
          ? {}
          : { prompt_logprobs: promptLogprobsOf(context, request, scored[i]!) }),
      };
      if (request.echo)
        sink.send(
          chunk({
            index,
            text: promptText(one.prompt, vocabulary),
            logprobs: echoed as unknown as JsonObject | null,
            finish_reason: null,
            ...extra,
          }),
        );
      else if (Object.keys(extra).length > 0)
        sink.send(chunk({ index, text: "", logprobs: null, finish_reason: null, ...extra }));
    }
  });
  try {
    await Promise.all(
      prepared.map((one, i) => {
        const releasers = Array.from({ length: n }, () => createTextReleaser(sampling.stop, undefined, vocabulary));
        const offsets = Array.from({ length: n }, () =>
          offsetCounter(request.echo ? promptText(one.prompt, vocabulary).length : 0, vocabulary),
        );
        const textChunk = (
          index: number,
          j: number,
          text: string,
          token: number,
          logprob: number,
          alternatives: SampledChoice["alternatives"],
        ): void => {
          const rows =
            request.logprobs === undefined
              ? null
              : completionRows(
                  {
                    tokens: [token],
                    logprobs: [logprob],
                    alternatives: alternatives === undefined ? undefined : [alternatives[0] ?? []],
                  },
                  flags,
                  [offsets[j]!(token)],
                );
          if (text === "" && rows === null && !sampling.returnTokenIds) return;
          sink.send(
            chunk({
              index,
              text,
              logprobs: rows as unknown as JsonObject | null,
              finish_reason: null,
              ...(sampling.returnTokenIds ? { token_ids: [token] } : {}),
            }),
          );
        };
        return context.engine.generate({ ...one.generation, cancelled: sink.closed }, (j, sampled, ended) => {
          const index = i * n + j;
          counts[index]!++;
          const alternatives = sampled.alternatives === undefined ? undefined : [sampled.alternatives];
          if (ended === undefined) {
            textChunk(index, j, releasers[j]!.push(sampled.token), sampled.token, sampled.logprob, alternatives);
            return;
          }
          const { rest } = releasers[j]!.finish(ended.tokens, ended.stop?.textTokens ?? ended.tokens.length);
          textChunk(index, j, rest, sampled.token, sampled.logprob, alternatives);
          sink.send(
            chunk({
              index,
              text: "",
              logprobs: null,
              finish_reason: ended.finish,
              stop_reason: ended.stop?.reason ?? null,
            }),
          );
        });
      }),
    );
  } catch (error) {
    sink.fail(asHttpError(error));
    return;
  }
  if (sampling.includeUsage) sink.send(usageChunk(meta, "text_completion", promptTokens, counts));
  sink.end();
}
