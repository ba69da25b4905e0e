// Streaming answers as Server-Sent Events, as tokens are sampled (the engine samples a streamed reply one token
// per model call, engine.ts):
//
//   the wire      `data: <JSON>\n\n` per chunk, then `data: [DONE]\n\n`; headers go out with the first chunk,
//                 so that a request refused before sampling still gets its 4xx. A failure after that is sent
//                 as a last `data: {"error": {...}}` event before [DONE], as vLLM does.
//   the text      a reply's text grows token by token, but not every token can be shown when it arrives: bytes
//                 of a character not complete yet, bytes that may be the start of a stop string (left out of the
//                 text if it completes), text that may be the start of tool calls (tool-choice.ts) wait until
//                 they are known. The released pieces add up to the text of the whole reply exactly: the stream
//                 of a seed equals its non-streamed answer.
import type { ServerResponse } from "node:http";
import type { JsonObject } from "../core/json.js";
import { errorBody, type HttpError } from "./errors.js";
import { heldForStop, type StopRule } from "./stop.js";
import { byteVocabulary, type Vocabulary } from "./vocabulary.js";

const BYTES = byteVocabulary(260);

export interface EventSink {
  send(event: JsonObject): void;
  /** The last event (an error), then [DONE]. */
  fail(error: HttpError): void;
  end(): void;
  /** True once the client has gone. */
  closed(): boolean;
}

export function eventSink(response: ServerResponse): EventSink {
  let gone = false;
  response.on("close", () => (gone = !response.writableFinished));
  const open = (): void => {
    if (!response.headersSent)
      response.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
  };
  return {
    send(event) {
      open();
      if (!gone) response.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    fail(error) {
      open();
      if (!gone) response.write(`data: ${JSON.stringify(errorBody(error))}\n\n`);
      response.end("data: [DONE]\n\n");
    },
    end() {
      open();
      response.end("data: [DONE]\n\n");
    },
    closed: () => gone,
  };
}

export interface TextReleaser {
  /** A sampled token that does not end the reply: the text it releases ("" while held). */
  push(token: number): string;
  /**
   * The reply ended: its first `textTokens` tokens make its text. Returns the whole text and the part not released
   * yet (before any hold for tool calls: the caller decides what the end of the text is).
   */
  finish(tokens: readonly number[], textTokens: number): { readonly text: string; readonly rest: string };
  /** The text released so far. */
  released(): string;
  /** The text decoded so far, released or held (not the tokens that may be a stop string's start). */
  decoded(): string;
}

/** `holdText(text)`: how many characters at the end of the text so far to hold back (tool-choice.ts heldForCalls);
 * the vocabulary gives each token's bytes (default: the byte tokenizer's). */
export function createTextReleaser(
  stop: StopRule,
  holdText: (text: string) => number = () => 0,
  vocabulary: Vocabulary = BYTES,
): TextReleaser {
  const tokens: number[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: false });
  let fed = 0;
  let text = "";
  let released = 0;
  const feed = (until: number, last: boolean): void => {
    const bytes = tokens.slice(fed, until).flatMap((token) => vocabulary.bytes(token));
    text += decoder.decode(Uint8Array.from(bytes), { stream: !last });
    fed = until;
  };
  return {
    push(token) {
      tokens.push(token);
      feed(tokens.length - heldForStop(tokens, stop), false);
      const releasable = text.length - holdText(text);
      if (releasable <= released) return "";
      const piece = text.slice(released, releasable);
      released = releasable;
      return piece;
    },
    finish(all, textTokens) {
      tokens.length = 0;
      tokens.push(...all.slice(0, Math.max(textTokens, fed)));
      feed(textTokens, true);
      return { text, rest: text.slice(released) };
    },
    released: () => text.slice(0, released),
    decoded: () => text,
  };
}
