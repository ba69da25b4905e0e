// Many requests on one run signal: the transport listens on the caller's signal once (its own signal carries
// one listener per request in flight or waiting), so a run with 16 or more requests at once prints no
// MaxListenersExceededWarning, and aborting the caller's signal still stops every request.
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenaiTransport } from "../../../src/policies/openai/transport.js";
import { completion, startFakeServer, type FakeServer } from "./fake-server.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const settings = (url: string) => ({
  apiKey: "test",
  baseUrl: url,
  concurrency: 16,
  rpm: 0,
  timeoutMs: 10_000,
  retries: 0,
  backoffMs: 0,
  maxBackoffMs: 0,
});
const body = { model: "fake-model", messages: [{ role: "user", content: "hi" }] };

describe("openai transport and the run's abort signal", () => {
  it("answers 24 concurrent requests with one listener on the caller's signal and no listener warning", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server = await startFakeServer(async () => {
      await gate;
      return { kind: "json", body: completion([{ content: "ok" }]) };
    });
    const transport = createOpenaiTransport(settings(server.url));
    const controller = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const requests = Array.from({ length: 24 }, (_, i) => transport.complete(body, i, controller.signal));
      while (server.inFlight() < 16) await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(controller.signal, "abort").length).toBe(1);
      release();
      const answers = await Promise.all(requests);
      expect(answers).toHaveLength(24);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("stops requests in flight and waiting when the caller's signal aborts", async () => {
    server = await startFakeServer(() => ({ kind: "hang" }));
    const transport = createOpenaiTransport(settings(server.url));
    const controller = new AbortController();
    const requests = Array.from({ length: 20 }, (_, i) => transport.complete(body, i, controller.signal));
    while (server.inFlight() < 16) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    const settled = await Promise.allSettled(requests);
    expect(settled.every((result) => result.status === "rejected")).toBe(true);
  });
});
