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
import { createCallStreamer } from "./call-stream.js";
import { callIds, chatChoice, prepareChat, type ChatContext } from "./chat.js";
import type { SampledToken } from "./engine.js";
import { asHttpError } from "./errors.js";
import type { ChatRequest } from "./request.js";
import { logprobEntries, usageChunk, usageOf, type ResponseMeta, type TokenFlags } from "./response.js";
import { createTextReleaser, type EventSink } from "./stream.js";
import { heldForCalls } from "./tool-choice.js";

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
  const flags: TokenFlags = {
    logprobs: request.logprobs,
    returnTokenIds: sampling.returnTokenIds,
    tokensAsIds: sampling.tokensAsIds,
    vocabulary,
  };
  const promptTokens = prepared.prompt.length;
  const counts = new Array<number>(sampling.n).fill(0);
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
  const chunk = (choice: JsonObject, extra: JsonObject = {}): JsonObject => ({
    id: meta.id,
    object: "chat.completion.chunk",
    created: meta.created,
    model: meta.model,
    choices: [choice],
    ...usage(),
    ...extra,
  });
  const releasers = Array.from({ length: sampling.n }, () =>
    createTextReleaser(sampling.stop, (text) => heldForCalls(text, prepared.plan), vocabulary),
  );
  const ids = callIds(newId);
  const calls = Array.from({ length: sampling.n }, (_, index) =>
    createCallStreamer(prepared.plan, (call) => ids(index, call)),
  );
  const callChunk = (index: number, deltas: readonly JsonObject[]): void => {
    if (deltas.length > 0)
      sink.send(chunk({ index, delta: { tool_calls: [...deltas] }, logprobs: null, finish_reason: null }));
  };

  /** The chunk of a token: its text, log-prob entry and id, as asked. */
  const tokenChunk = (index: number, sampled: SampledToken, text: string): JsonObject | undefined => {
    if (text === "" && !flags.logprobs && !flags.returnTokenIds) return undefined;
    const entries = flags.logprobs
      ? {
          content: logprobEntries(
            { tokens: [sampled.token], logprobs: [sampled.logprob], alternatives: [sampled.alternatives ?? []] },
            flags,
          ),
        }
      : null;
    return chunk({
      index,
      delta: text === "" ? {} : { content: text },
      logprobs: entries,
      finish_reason: null,
      ...(flags.returnTokenIds ? { token_ids: [sampled.token] } : {}),
    });
  };

  const scored = promptLogprobs === undefined ? undefined : await promptLogprobs(prepared.prompt);
  for (let index = 0; index < sampling.n; index++) {
    const first: JsonObject =
      index !== 0
        ? {}
        : {
            ...(flags.returnTokenIds ? { prompt_token_ids: [...prepared.prompt] } : {}),
            ...(scored === undefined ? {} : { prompt_logprobs: scored }),
          };
    const delta = { role: "assistant", content: prepared.echo };
    sink.send(chunk({ index, delta, logprobs: null, finish_reason: null }, first));
  }
  try {
    await context.engine.generate({ ...prepared.generation, cancelled: sink.closed }, (index, sampled, ended) => {
      counts[index]!++;
      const releaser = releasers[index]!;
      if (ended === undefined) {
        const event = tokenChunk(index, sampled, releaser.push(sampled.token));
        if (event !== undefined) sink.send(event);
        callChunk(index, calls[index]!.update(releaser.decoded()));
        return;
      }
      const choice = chatChoice(context, prepared, ended, ids);
      releaser.finish(ended.tokens, ended.stop?.textTokens ?? ended.tokens.length);
      const released = prepared.echo + releaser.released();
      const content = choice.content ?? "";
      const event = tokenChunk(index, sampled, content.startsWith(released) ? content.slice(released.length) : "");
      if (event !== undefined) sink.send(event);
      callChunk(index, calls[index]!.finish(choice.toolCalls));
      sink.send(
        chunk({ index, delta: {}, logprobs: null, finish_reason: choice.finishReason, stop_reason: choice.stopReason }),
      );
    });
  } catch (error) {
    sink.fail(asHttpError(error));
    return;
  }
  if (sampling.includeUsage) sink.send(usageChunk(meta, "chat.completion.chunk", promptTokens, counts));
  sink.end();
}
