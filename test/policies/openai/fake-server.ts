// A loopback OpenAI-compatible server for tests and bench (node:http on port 0, no mocks of the client): a
// responder function decides each reply to POST /v1/chat/completions: JSON (any status and headers, optionally
// after a delay), raw text (with any Content-Type), a dropped connection, or no answer at all until the client
// gives up. Every request is recorded (parsed body, headers) so tests can count and inspect them.
// MALFORMED_REPLIES: 200 answers of the wrong shape (a broken server or gateway), each with the message it gets.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  /** Arrival order, 0-based. */
  readonly index: number;
  readonly body: Record<string, unknown>;
  readonly headers: IncomingHttpHeaders;
}

export type FakeReply =
  | {
      readonly kind: "json";
      readonly body: unknown;
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    }
  | { readonly kind: "raw"; readonly text: string; readonly status?: number; readonly contentType?: string }
  | { readonly kind: "drop" }
  | { readonly kind: "hang" };

export type Responder = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeServer {
  /** Base URL up to /v1. */
  readonly url: string;
  readonly requests: FakeRequest[];
  /** Requests being answered right now, and the most at once. */
  readonly inFlight: () => number;
  readonly peakInFlight: () => number;
  close(): Promise<void>;
}

function send(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(text);
}

export async function startFakeServer(responder: Responder): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  let active = 0;
  let peak = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      active++;
      peak = Math.max(peak, active);
      let finished = false;
      const finish = (): void => {
        if (!finished) active--;
        finished = true;
      };
      response.on("close", finish);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {
        // Recorded as an empty body: the responder decides.
      }
      const recorded: FakeRequest = { index: requests.length, body, headers: request.headers };
      requests.push(recorded);
      void Promise.resolve(responder(recorded)).then((reply) => {
        if (reply.kind === "drop") {
          request.socket.destroy();
          return;
        }
        if (reply.kind === "hang") return; // answered by nobody: the client's timeout closes the socket
        if (reply.kind === "raw") {
          send(
            response,
            reply.status ?? 200,
            reply.text,
            reply.contentType === undefined ? {} : { "content-type": reply.contentType },
          );
          return;
        }
        const write = (): void => send(response, reply.status ?? 200, JSON.stringify(reply.body), reply.headers);
        if (reply.delayMs === undefined || reply.delayMs <= 0) write();
        else setTimeout(write, reply.delayMs);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    inFlight: () => active,
    peakInFlight: () => peak,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface FakeChoice {
  readonly content?: string | null;
  readonly toolCalls?: readonly { readonly id?: string; readonly name: string; readonly arguments: string }[];
  readonly finishReason?: string;
  readonly logprobs?: readonly { readonly token: string; readonly logprob: number }[];
  readonly tokenIds?: readonly number[];
}

/** A chat.completion body with the given choices. */
export function completion(
  choices: readonly FakeChoice[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 0,
    model: "fake-model",
    choices: choices.map((choice, index) => ({
      index,
      message: {
        role: "assistant",
        content: choice.content === undefined ? "" : choice.content,
        ...(choice.toolCalls === undefined
          ? {}
          : {
              tool_calls: choice.toolCalls.map((call, i) => ({
                id: call.id ?? `call_${index}_${i}`,
                type: "function",
                function: { name: call.name, arguments: call.arguments },
              })),
            }),
      },
      finish_reason: choice.finishReason ?? (choice.toolCalls === undefined ? "stop" : "tool_calls"),
      ...(choice.logprobs === undefined
        ? {}
        : { logprobs: { content: choice.logprobs.map((entry) => ({ ...entry, bytes: null, top_logprobs: [] })) } }),
      ...(choice.tokenIds === undefined ? {} : { token_ids: choice.tokenIds }),
    })),
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    ...extra,
  };
}

/** The text of the last message of a request with the given role. */
export function lastMessage(body: Record<string, unknown>, role: string): string | undefined {
  const messages = Array.isArray(body["messages"]) ? (body["messages"] as { role?: unknown; content?: unknown }[]) : [];
  const found = [...messages].reverse().find((message) => message.role === role);
  return typeof found?.content === "string" ? found.content : undefined;
}

/** A completion whose first choice's message is replaced by `message` (shapes no well-made server sends). */
function withMessage(message: unknown): Record<string, unknown> {
  const body = completion([{ content: "Up" }]);
  const [choice] = body["choices"] as Record<string, unknown>[];
  return { ...body, choices: [{ ...choice, message }] };
}

/** 200 answers whose structure is not a chat completion (the server's fault, never the model's), each with what
 * the policy error says about it. */
export const MALFORMED_REPLIES: readonly {
  readonly name: string;
  readonly reply: FakeReply;
  readonly message: RegExp;
}[] = [
  {
    name: "no choices",
    reply: { kind: "json", body: { id: "x", object: "chat.completion", model: "fake-model" } },
    message: /answered 200 without a "choices" list$/,
  },
  {
    name: "choices not a list",
    reply: { kind: "json", body: { ...completion([]), choices: { message: { content: "Up" } } } },
    message: /answered 200 with "choices" that is an object with keys \{message\}, not a list$/,
  },
  {
    name: "an array body",
    reply: { kind: "json", body: [completion([{ content: "Up" }])] },
    message: /answered 200 with a JSON array of 1 item instead of a chat completion object$/,
  },
  {
    name: "a JSON string body",
    reply: { kind: "json", body: "Up" },
    message: /answered 200 with a string \("Up"\) instead of a chat completion object$/,
  },
  {
    name: "empty choices",
    reply: { kind: "json", body: completion([]) },
    message: /answered 200 with an empty "choices" list$/,
  },
  {
    name: "content a number",
    reply: { kind: "json", body: withMessage({ role: "assistant", content: 42 }) },
    message: /answered 200 with choices\[0\]\.message\.content that is a number \(42\), not text$/,
  },
  {
    name: "content an object",
    reply: { kind: "json", body: withMessage({ role: "assistant", content: { text: "Up" } }) },
    message: /choices\[0\]\.message\.content that is an object with keys \{text\}, not text$/,
  },
  {
    name: "content a list of strings",
    reply: { kind: "json", body: withMessage({ role: "assistant", content: ["Up", "Left"] }) },
    message: /choices\[0\]\.message\.content that is an array of 2 items, not text$/,
  },
  {
    name: "no message",
    reply: { kind: "json", body: withMessage(undefined) },
    message: /answered 200 without choices\[0\]\.message$/,
  },
  {
    name: "tool_calls not a list",
    reply: { kind: "json", body: withMessage({ role: "assistant", content: null, tool_calls: { name: "cd" } }) },
    message: /choices\[0\]\.message\.tool_calls that is an object with keys \{name\}, not a list$/,
  },
  {
    name: "a tool call without function",
    reply: {
      kind: "json",
      body: withMessage({ role: "assistant", content: null, tool_calls: [{ id: "c", name: "cd" }] }),
    },
    message: /without choices\[0\]\.message\.tool_calls\[0\]\.function$/,
  },
  {
    name: "an HTML page",
    reply: {
      kind: "raw",
      contentType: "text/html; charset=utf-8",
      text: "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body>Please sign in to continue to the gateway.</body></html>",
    },
    message:
      /answered 200 with a text\/html body instead of JSON: "<!DOCTYPE html> <html><head><title>Sign in<\/title><\/head> <b\.\.\."$/,
  },
];
