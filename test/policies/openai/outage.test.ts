// A model server that does not answer is said, never a silent 0%: the transport's outage lines (one as the faults
// start, one a minute while they go on, one when the server answers again, for every request together), and a
// connection error that names its cause (a refused port, an unknown host), not the client's bare "Connection error.".
// Real loopback servers and sockets; an injected clock that each wait moves, so minutes of outage take no time.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { ServiceNotice } from "../../../src/core/outage-notices.js";
import { createOpenaiTransport } from "../../../src/policies/openai/transport.js";
import { completion, startFakeServer, type FakeServer } from "./fake-server.js";

const closing: FakeServer[] = [];
afterEach(async () => {
  for (const server of closing.splice(0)) await server.close();
});

const body = { model: "m", messages: [{ role: "user", content: "hi" }] };

/** A clock in milliseconds that only the transport's waits move. */
function fakeTime() {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => void (now += ms) };
}

/** A loopback port nothing listens on (a server opened on it, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("openai transport: an outage of the server", () => {
  it("names a refused connection's cause, in its one line and in the error the episode ends with", async () => {
    const port = await closedPort();
    const notices: ServiceNotice[] = [];
    const transport = createOpenaiTransport({
      apiKey: "none",
      baseUrl: `http://127.0.0.1:${port}/v1`,
      concurrency: 4,
      rpm: 0,
      timeoutMs: 5000,
      retries: 3,
      backoffMs: 500,
      maxBackoffMs: 30_000,
      ...fakeTime(),
      onNotice: (notice) => void notices.push(notice),
    });
    await expect(transport.complete(body, 1)).rejects.toThrow(
      new RegExp(
        `^openai request failed after 4 attempts: connection error: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`,
      ),
    );
    expect(notices.map((notice) => notice.message)).toEqual([
      `openai: http://127.0.0.1:${port}/v1: connection error: connect ECONNREFUSED 127.0.0.1:${port}; retrying (a request is tried 4 times at most, up to 30 s apart)`,
    ]);
  });

  it("says a 3-minute outage of many requests in a few lines, and once that the server answers again", async () => {
    const time = fakeTime();
    const server = await startFakeServer(() =>
      time.now() < 180_000
        ? { kind: "json", status: 503, body: { error: { message: "overloaded" } } }
        : { kind: "json", body: completion([{ content: "ok" }]) },
    );
    closing.push(server);
    const notices: ServiceNotice[] = [];
    const transport = createOpenaiTransport({
      apiKey: "none",
      baseUrl: server.url,
      concurrency: 4,
      rpm: 0,
      timeoutMs: 5000,
      retries: 100,
      backoffMs: 500,
      maxBackoffMs: 10_000,
      ...time,
      onNotice: (notice) => void notices.push(notice),
    });
    for (let request = 0; request < 12; request++) await transport.complete(body, request);
    const lines = notices.map((notice) => notice.message);
    expect(transport.stats().retries).toBeGreaterThan(15);
    expect(lines[0]).toBe(
      `openai: ${server.url}: 503 overloaded; retrying (a request is tried 101 times at most, up to 10 s apart)`,
    );
    const middle = lines.slice(1, -1);
    expect(middle.length).toBeGreaterThanOrEqual(2);
    expect(middle.length).toBeLessThanOrEqual(3);
    for (const line of middle)
      expect(line).toMatch(
        /^openai: still failing after [12] min( \d+ s)? \(\d+ faults\): .*503 overloaded; retrying$/,
      );
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^openai: ${server.url.replace(/[./]/g, "\\$&")} answers again \\(after 3 min( \\d+ s)? of faults\\)$`,
      ),
    );
    expect(notices.at(-1)?.level).toBe("info");
  });
});
