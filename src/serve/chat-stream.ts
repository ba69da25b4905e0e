// A chat answer streamed as `chat.completion.chunk` events while the model samples it (stream.ts has the wire
// and the text released token by token):
//
//   1. per choice, a chunk with the role (delta {role: "assistant", content: ""}; the first carries
//      prompt_token_ids with return_token_ids)
//   2. per sampled token, a chunk with the text it releases, its log-prob entry (logprobs) and its id
//      (return_token_ids); a token that releases nothing and has nothing else to send sends no chunk
//   3. when a choice ends: the rest of its text with its last token, its tool calls in one chunk (delta
//      {tool_calls: [{index, id, type, function: {name, arguments}}]}), then a chunk with its finish_reason and
//      stop_reason
//   4. with stream_options.include_usage a last chunk with no choices and the usage (the others carry
//      "usage": null); with continuous_usage_stats every chunk carries the usage so far
//   5. data: [DONE]
// The content deltas of a choice add up to the content of the non-streamed answer of the same seed, its log-prob
// entries and token ids to its log-probs and token ids.
import type { JsonObject } from "../core/json.js";
import { callIds, chatChoice, prepareChat, type ChatContext } from "./chat.js";
import type { SampledToken } from "./engine.js";
import { asHttpError } from "./errors.js";
import type { ChatRequest } from "./request.js";
import { logprobEntries, toolCallsJson, usageChunk, usageOf, type ResponseMeta, type TokenFlags } from "./response.js";
import { createTextReleaser, type EventSink } from "./stream.js";
import { heldForCalls } from "./tool-choice.js";

export async function streamChat(
  context: ChatContext,
  request: ChatRequest,
  meta: ResponseMeta,
  responseNumber: number,
  sink: EventSink,
): Promise<void> {
  const prepared = prepareChat(context, request, true);
  const { sampling } = request;
  const flags: TokenFlags = {
    logprobs: request.logprobs,
    returnTokenIds: sampling.returnTokenIds,
    tokensAsIds: sampling.tokensAsIds,
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
    createTextReleaser(sampling.stop, (text) => heldForCalls(text, prepared.plan)),
  );
  const ids = callIds(responseNumber);

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

  for (let index = 0; index < sampling.n; index++) {
    const first: JsonObject = index === 0 && flags.returnTokenIds ? { prompt_token_ids: [...prepared.prompt] } : {};
    sink.send(chunk({ index, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }, first));
  }
  try {
    await context.engine.generate({ ...prepared.generation, cancelled: sink.closed }, (index, sampled, ended) => {
      counts[index]!++;
      const releaser = releasers[index]!;
      if (ended === undefined) {
        const event = tokenChunk(index, sampled, releaser.push(sampled.token));
        if (event !== undefined) sink.send(event);
        return;
      }
      const choice = chatChoice(context, prepared, ended, ids);
      releaser.finish(ended.tokens, ended.stop?.textTokens ?? ended.tokens.length);
      const released = releaser.released();
      const content = choice.content ?? "";
      const event = tokenChunk(index, sampled, content.startsWith(released) ? content.slice(released.length) : "");
      if (event !== undefined) sink.send(event);
      if (choice.toolCalls.length > 0) {
        const calls = toolCallsJson(choice.toolCalls).map((call, i) => ({ index: i, ...(call as JsonObject) }));
        sink.send(chunk({ index, delta: { tool_calls: calls }, logprobs: null, finish_reason: null }));
      }
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
