// A chat answer streamed as `chat.completion.chunk` events while the model samples it (stream.ts has the wire
// and the text released token by token):
//
//   1. per choice, a chunk with the role (delta {role: "assistant", content: ""}, or the last message's text with
//      echo; the first carries prompt_token_ids with return_token_ids, and prompt_logprobs when asked)
//   2. per sampled token, a chunk with the text it releases, its log-prob entry (logprobs) and its id
//      (return_token_ids); a token that releases nothing and has nothing else to send sends no chunk; tool
//      calls as they are written (call-stream.ts: the name first, then the arguments piece by piece)
//   3. when a choice ends: the rest of its text with its last token, what its tool calls hold beyond what was
//      streamed, then a chunk with its finish_reason and stop_reason
//   4. with stream_options.include_usage a last chunk with no choices and the usage (the others carry
//      "usage": null); with continuous_usage_stats every chunk carries the usage so far
//   5. data: [DONE]
// The content deltas of a choice add up to the content of the non-streamed answer of the same seed, its log-prob
// entries and token ids to its log-probs and token ids.
import type { Json, JsonObject } from "../core/json.js";
import { createCallStreamer, type CallStreamer } from "./call-stream.js";
import { callIds, chatChoice, prepareChat, type ChatContext, type PreparedChat } from "./chat.js";
import type { SampledChoice, SampledToken } from "./engine.js";
import { asHttpError } from "./errors.js";
import type { ChatRequest } from "./request.js";
import { logprobEntries, streamUsageField, usageChunk, type ResponseMeta, type TokenFlags } from "./response.js";
import { createTextReleaser, type EventSink, type TextReleaser } from "./stream.js";
import { heldForCalls } from "./tool-choice.js";

/** What the steps of one streamed chat answer share. */
interface ChatStream {
  readonly context: ChatContext;
  readonly request: ChatRequest;
  readonly meta: ResponseMeta;
  readonly sink: EventSink;
  readonly prepared: PreparedChat;
  readonly flags: TokenFlags;
  /** Per choice, the tokens sampled so far. */
  readonly counts: number[];
  /** Per choice, the text it releases token by token. */
  readonly releasers: readonly TextReleaser[];
  /** Per choice, its tool calls as they are written. */
  readonly calls: readonly CallStreamer[];
  readonly ids: (choice: number, call: number) => string;
}

function chatChunk(stream: ChatStream, choice: JsonObject, extra: JsonObject = {}): JsonObject {
  const { meta } = stream;
  return {
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    choices: [choice],
    ...streamUsageField(stream.request.sampling, stream.prepared.prompt.length, stream.counts),
    ...extra,
  };
}

function sendCalls(stream: ChatStream, index: number, deltas: readonly JsonObject[]): void {
  if (deltas.length > 0)
    stream.sink.send(
      chatChunk(stream, { index, delta: { tool_calls: [...deltas] }, logprobs: null, finish_reason: null }),
    );
}

/** The chunk of a token: its text, log-prob entry and id, as asked. */
function tokenChunk(stream: ChatStream, index: number, sampled: SampledToken, text: string): JsonObject | undefined {
  const { flags } = stream;
  if (text === "" && !flags.logprobs && !flags.returnTokenIds) return undefined;
  const entries = flags.logprobs
    ? {
        content: logprobEntries(
          { tokens: [sampled.token], logprobs: [sampled.logprob], alternatives: [sampled.alternatives ?? []] },
          flags,
        ),
      }
    : null;
  return chatChunk(stream, {
    index,
    delta: text === "" ? {} : { content: text },
    logprobs: entries,
    finish_reason: null,
    ...(flags.returnTokenIds ? { token_ids: [sampled.token] } : {}),
  });
}

/** Per choice, the chunk with the role (and the echoed text); the first with the prompt's ids and log-probs. */
function sendRoles(stream: ChatStream, scored: Json | undefined): void {
  const { prepared, flags } = stream;
  for (let index = 0; index < stream.request.sampling.n; index++) {
    const first: JsonObject =
      index !== 0
        ? {}
        : {
            ...(flags.returnTokenIds ? { prompt_token_ids: [...prepared.prompt] } : {}),
            ...(scored === undefined ? {} : { prompt_logprobs: scored }),
          };
    const delta = { role: "assistant", content: prepared.echo };
    stream.sink.send(chatChunk(stream, { index, delta, logprobs: null, finish_reason: null }, first));
  }
}

/** A token of choice `index` that does not end it: its chunk, and its tool calls' news. */
function sendToken(stream: ChatStream, index: number, sampled: SampledToken): void {
  const releaser = stream.releasers[index]!;
  const event = tokenChunk(stream, index, sampled, releaser.push(sampled.token));
  if (event !== undefined) stream.sink.send(event);
  sendCalls(stream, index, stream.calls[index]!.update(releaser.decoded()));
}

/** The last token of a choice: the rest of its text, its calls beyond those streamed, its finish reason. */
function sendEnd(stream: ChatStream, index: number, sampled: SampledToken, ended: SampledChoice): void {
  const { prepared } = stream;
  const releaser = stream.releasers[index]!;
  const choice = chatChoice(stream.context, prepared, ended, stream.ids);
  releaser.finish(ended.tokens, ended.stop?.textTokens ?? ended.tokens.length);
  const released = prepared.echo + releaser.released();
  const content = choice.content ?? "";
  const event = tokenChunk(stream, index, sampled, content.startsWith(released) ? content.slice(released.length) : "");
  if (event !== undefined) stream.sink.send(event);
  sendCalls(stream, index, stream.calls[index]!.finish(choice.toolCalls));
  stream.sink.send(
    chatChunk(stream, {
      index,
      delta: {},
      logprobs: null,
      finish_reason: choice.finishReason,
      stop_reason: choice.stopReason,
    }),
  );
}

/** `promptLogprobs` (asked): the prompt's log-probs, computed once the prompt is known; `newId` makes call ids. */
export async function streamChat(
  context: ChatContext,
  request: ChatRequest,
  meta: ResponseMeta,
  sink: EventSink,
  newId: () => string,
  promptLogprobs?: (prompt: readonly number[]) => Promise<Json>,
): Promise<void> {
  const prepared = prepareChat(context, request, true);
  const { sampling } = request;
  const { vocabulary } = context.renderer;
  const ids = callIds(newId);
  const stream: ChatStream = {
    context,
    request,
    meta,
    sink,
    prepared,
    flags: {
      logprobs: request.logprobs,
      returnTokenIds: sampling.returnTokenIds,
      tokensAsIds: sampling.tokensAsIds,
      vocabulary,
    },
    counts: new Array<number>(sampling.n).fill(0),
    releasers: Array.from({ length: sampling.n }, () =>
      createTextReleaser(sampling.stop, (text) => heldForCalls(text, prepared.plan), vocabulary),
    ),
    calls: Array.from({ length: sampling.n }, (_, index) =>
      createCallStreamer(prepared.plan, (call) => ids(index, call)),
    ),
    ids,
  };
  sendRoles(stream, promptLogprobs === undefined ? undefined : await promptLogprobs(prepared.prompt));
  try {
    await context.engine.generate({ ...prepared.generation, cancelled: sink.closed }, (index, sampled, ended) => {
      stream.counts[index]!++;
      if (ended === undefined) sendToken(stream, index, sampled);
      else sendEnd(stream, index, sampled, ended);
    });
  } catch (error) {
    sink.fail(asHttpError(error));
    return;
  }
  if (sampling.includeUsage)
    sink.send(usageChunk(meta, "chat.completion.chunk", prepared.prompt.length, stream.counts));
  sink.end();
}
