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
  type PreparedPrompt,
} from "./completions.js";
import type { SampledChoice, SampledToken } from "./engine.js";
import { asHttpError } from "./errors.js";
import type { PromptPosition } from "./prompt-logprobs.js";
import { streamUsageField, usageChunk, type ResponseMeta } from "./response.js";
import { createTextReleaser, type EventSink } from "./stream.js";

/** What the steps of one streamed completion share. */
interface CompletionStream {
  readonly context: CompletionContext;
  readonly request: CompletionRequest;
  readonly meta: ResponseMeta;
  readonly sink: EventSink;
  /** Per sequence (prompt i, choice j: i * n + j), the tokens sampled so far. */
  readonly counts: number[];
  readonly promptTokens: number;
}

function completionChunk(stream: CompletionStream, choice: JsonObject): JsonObject {
  const { meta } = stream;
  return {
    id: meta.id,
    object: "text_completion",
    created: meta.created,
    model: meta.model,
    choices: [choice],
    ...streamUsageField(stream.request.sampling, stream.promptTokens, stream.counts),
  };
}

/** Per choice, the echoed prompt (with its log-prob rows) and the prompt's token ids and log-probs, as asked. */
function sendPrompts(
  stream: CompletionStream,
  prepared: readonly PreparedPrompt[],
  scored: readonly (readonly PromptPosition[])[] | undefined,
): void {
  const { context, request, sink } = stream;
  const { sampling } = request;
  const n = sampling.n;
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
          completionChunk(stream, {
            index,
            text: promptText(one.prompt, context.vocabulary),
            logprobs: echoed,
            finish_reason: null,
            ...extra,
          }),
        );
      else if (Object.keys(extra).length > 0)
        sink.send(completionChunk(stream, { index, text: "", logprobs: null, finish_reason: null, ...extra }));
    }
  });
}

/** The chunk of one sampled token: the text it releases, its log-probs and id, as asked; none when all are empty. */
function sendText(
  stream: CompletionStream,
  offset: (token: number) => number,
  index: number,
  text: string,
  sampled: SampledToken,
): void {
  const { request } = stream;
  const { sampling } = request;
  const { token, logprob } = sampled;
  const rows =
    request.logprobs === undefined
      ? null
      : completionRows(
          {
            tokens: [token],
            logprobs: [logprob],
            alternatives: sampled.alternatives === undefined ? undefined : [sampled.alternatives],
          },
          { tokensAsIds: sampling.tokensAsIds, vocabulary: stream.context.vocabulary },
          [offset(token)],
        );
  if (text === "" && rows === null && !sampling.returnTokenIds) return;
  stream.sink.send(
    completionChunk(stream, {
      index,
      text,
      logprobs: rows,
      finish_reason: null,
      ...(sampling.returnTokenIds ? { token_ids: [token] } : {}),
    }),
  );
}

/** Samples prompt i's choices, sending each token's chunk as it comes and each choice's last chunk as it ends. */
function streamPrompt(stream: CompletionStream, one: PreparedPrompt, i: number): Promise<SampledChoice[]> {
  const { context, request, sink } = stream;
  const { sampling } = request;
  const { vocabulary } = context;
  const n = sampling.n;
  const releasers = Array.from({ length: n }, () => createTextReleaser(sampling.stop, undefined, vocabulary));
  const offsets = Array.from({ length: n }, () =>
    offsetCounter(request.echo ? promptText(one.prompt, vocabulary).length : 0, vocabulary),
  );
  return context.engine.generate({ ...one.generation, cancelled: sink.closed }, (j, sampled, ended) => {
    const index = i * n + j;
    stream.counts[index]!++;
    if (ended === undefined) {
      sendText(stream, offsets[j]!, index, releasers[j]!.push(sampled.token), sampled);
      return;
    }
    const { rest } = releasers[j]!.finish(ended.tokens, ended.stop?.textTokens ?? ended.tokens.length);
    sendText(stream, offsets[j]!, index, rest, sampled);
    sink.send(
      completionChunk(stream, {
        index,
        text: "",
        logprobs: null,
        finish_reason: ended.finish,
        stop_reason: ended.stop?.reason ?? null,
      }),
    );
  });
}

/** The completion streamed: per token its text (and log-probs), per choice a last chunk with its finish reason. */
export async function streamCompletions(
  context: CompletionContext,
  request: CompletionRequest,
  meta: ResponseMeta,
  sink: EventSink,
): Promise<void> {
  const prepared = prepareCompletions(context, request, true);
  const stream: CompletionStream = {
    context,
    request,
    meta,
    sink,
    counts: new Array<number>(prepared.length * request.sampling.n).fill(0),
    promptTokens: prepared.reduce((sum, one) => sum + one.prompt.tokens.length, 0),
  };
  sendPrompts(stream, prepared, await scoredPrompts(context, request, prepared));
  try {
    await Promise.all(prepared.map((one, i) => streamPrompt(stream, one, i)));
  } catch (error) {
    sink.fail(asHttpError(error));
    return;
  }
  if (request.sampling.includeUsage) sink.send(usageChunk(meta, "text_completion", stream.promptTokens, stream.counts));
  sink.end();
}
