// A TinkerClient without HTTP, for the tests of the steps above the client: each request is recorded and answered by
// the test's function (path, body) -> result (a probe that throws is a failed beat); notices are kept.
import type { TinkerClient, TinkerNotice } from "../../src/tinker/client.js";

export interface FakeClient extends TinkerClient {
  readonly requests: {
    readonly method: "GET" | "POST" | "SUBMIT" | "PROBE";
    readonly path: string;
    readonly body: unknown;
  }[];
  readonly notices: TinkerNotice[];
}

export function fakeClient(answer: (path: string, body: unknown) => unknown): FakeClient {
  const requests: FakeClient["requests"] = [];
  const notices: TinkerNotice[] = [];
  const reply = async (method: "GET" | "POST" | "SUBMIT" | "PROBE", path: string, body: unknown): Promise<unknown> => {
    requests.push({ method, path, body });
    return answer(path, body);
  };
  return {
    baseUrl: "http://tinker.test",
    config: async () => ({}) as Awaited<ReturnType<TinkerClient["config"]>>,
    get: (path) => reply("GET", path, undefined),
    post: (path, body) => reply("POST", path, body),
    submit: (path, body) => reply("SUBMIT", path, body),
    probe: async (path, body) => {
      try {
        await reply("PROBE", path, body);
        return { ok: true };
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    },
    notice: (notice) => void notices.push(notice),
    stats: () => ({ requests: requests.length, retries: 0, polls: 0, pauses: 0, waitedMs: 0 }),
    requests,
    notices,
  };
}
