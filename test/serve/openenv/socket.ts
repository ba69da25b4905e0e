// A test's WebSocket client of `budgetrl env-server` (the `ws` library): send a JSON message, read the next one; and
// the close event of the socket, awaited (no sleeps).
import WebSocket from "ws";

export interface TestSocket {
  send(message: unknown): Promise<Record<string, unknown>>;
  sendText(text: string): Promise<Record<string, unknown>>;
  /** The next message the server sends unasked (CAPACITY_REACHED). */
  next(): Promise<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export async function connect(url: string, path = "/ws", headers: Record<string, string> = {}): Promise<TestSocket> {
  const socket = new WebSocket(`${url.replace(/^http/, "ws")}${path}`, { headers });
  const inbox: string[] = [];
  const waiting: ((text: string) => void)[] = [];
  socket.on("message", (raw) => {
    const text = raw.toString();
    const wake = waiting.shift();
    if (wake === undefined) inbox.push(text);
    else wake(text);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  const next = (): Promise<Record<string, unknown>> => {
    const first = inbox.shift();
    if (first !== undefined) return Promise.resolve(JSON.parse(first) as Record<string, unknown>);
    return new Promise((resolve) => waiting.push((text) => resolve(JSON.parse(text) as Record<string, unknown>)));
  };
  const sendText = (text: string) => {
    socket.send(text);
    return next();
  };
  return { send: (message) => sendText(JSON.stringify(message)), sendText, next, closed, close: () => socket.close() };
}
