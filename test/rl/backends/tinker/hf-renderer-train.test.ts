// Training with the hf:DIR renderer (the hand-made tokenizer of hf-fixture.ts) through the loopback Tinker
// stand-in, whose fresh byte model has 260 ids too: a step end to end through train(), the renderer's options from
// the train CLI, and one sequence's forward_backward. Left to the full suite (vitest.unit.config.ts): it trains
// through HTTP and runs the CLI; hf-renderer.test.ts checks the renderer itself in the unit lane.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTinkerBackend } from "../../../../src/rl/backends/tinker/backend.js";
import { createTinkerClient } from "../../../../src/tinker/client.js";
import { openRenderer } from "../../../../src/policies/renderers/renderer.js";
import { train } from "../../../../src/rl/train.js";
import { cli } from "../../../cli/helpers.js";
import {
  bytes,
  END,
  episode,
  FIXTURE,
  fixtureCopy,
  NL,
  START,
  TOOLS_TEMPLATE,
} from "../../../policies/renderers/hf-fixture.js";
import { startStandin, type Standin } from "../../../tinker/standin-server.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-hf-renderer-train-"));
const toolsFolder = fixtureCopy("tools", { "chat_template.jinja": TOOLS_TEMPLATE });

describe("train --backend tinker --renderer hf:DIR against the stand-in", () => {
  let standin: Standin;
  beforeAll(async () => {
    // A fresh byte model (260 ids): it reads the fixture's ids as its own, which is all the loop needs.
    standin = await startStandin({
      baseModels: {
        "tiny-260": { config: { layers: 1, dModel: 16, heads: 2, hiddenSize: 32, contextLength: 512 }, seed: 3 },
      },
    });
  });
  afterAll(async () => {
    await standin.close();
  });

  it("runs a step end to end: prompts from the template, replies stopped at <|im_end|>, a checkpoint naming the renderer", async () => {
    const out = join(dir, "train");
    const config = {
      env: "hanoi",
      envOptions: { disks: 2, randomStart: true },
      steps: 1,
      tasksPerStep: 2,
      group: 2,
      evalEvery: 0,
      checkpointEvery: 1,
      maxNewTokens: 8,
      backend: { kind: "tinker", baseModel: "tiny-260", renderer: `hf:${FIXTURE}` },
    };
    const before = standin.requests.length;
    const result = await train({ out, config, tinker: { baseUrl: standin.url } });
    expect(result).toMatchObject({ stepsDone: 1, finished: true });
    const samples = standin.requests.slice(before).filter((request) => request.path === "/api/v1/asample");
    expect(samples.length).toBeGreaterThan(0);
    for (const request of samples) {
      const body = request.body as { prompt: { chunks: { tokens: number[] }[] }; sampling_params: { stop: number[] } };
      expect(body.sampling_params.stop).toEqual([END]);
      const prompt = body.prompt.chunks.flatMap((chunk) => chunk.tokens);
      expect(prompt.slice(0, 8)).toEqual([START, ...bytes("system"), NL]);
      expect(prompt.slice(-11)).toEqual([START, ...bytes("assistant"), NL]);
    }
    // The fresh model solves nothing, so every group has zero advantages and the step sends no gradient.
    const manifest = JSON.parse(readFileSync(join(out, "checkpoints", "step-000001", "budgetrl.json"), "utf8")) as {
      renderer: string;
    };
    expect(manifest.renderer).toBe(`hf:${FIXTURE}`);
  }, 120_000);

  it("takes the renderer's options from the train CLI (--template-opt, --tool-call-format), stores them, and refuses bad ones before any work", async () => {
    const out = join(dir, "train-cli");
    const common = [
      "train",
      "--backend",
      "tinker",
      "--tinker-url",
      standin.url,
      "--base-model",
      "tiny-260",
      "--env",
      "hanoi",
      "--env-opt",
      "disks=2",
      "--steps",
      "1",
      "--tasks-per-step",
      "1",
      "--group",
      "2",
      "--eval-every",
      "0",
      "--max-new-tokens",
      "8",
      "--no-progress",
    ];
    const args = [...common, "--renderer", `hf:${toolsFolder}`];
    const before = standin.requests.length;
    const trained = await cli(
      ...args,
      "--template-opt",
      "enable_thinking=false",
      "--tool-call-format",
      "hermes",
      "--out",
      out,
    );
    expect([trained.code, trained.stderr]).toEqual([0, ""]);
    const samples = standin.requests.slice(before).filter((request) => request.path === "/api/v1/asample");
    expect(samples.length).toBeGreaterThan(0);
    for (const request of samples)
      expect(
        (request.body as { prompt: { chunks: { tokens: number[] }[] } }).prompt.chunks
          .flatMap((chunk) => chunk.tokens)
          .slice(-15),
      ).toEqual(bytes("<think></think>"));
    expect(JSON.parse(readFileSync(join(out, "config.json"), "utf8"))).toMatchObject({
      backend: { templateOptions: { enable_thinking: false }, toolCallFormat: "hermes" },
    });
    const maybe = await cli(...args, "--template-opt", "enable_thinking=maybe", "--out", join(dir, "maybe"));
    expect([maybe.code, maybe.stderr]).toEqual([2, expect.stringMatching(/--template-opt enable_thinking/)]);
    const bytesRenderer = await cli(...common, "--template-opt", "enable_thinking=false", "--out", join(dir, "bytes"));
    expect([bytesRenderer.code, bytesRenderer.stderr]).toEqual([
      2,
      expect.stringMatching(/--template-opt: is read by --renderer hf:DIR only/),
    ]);
  }, 120_000);

  it("trains on an episode's one sequence: forward_backward on the renderer's tokens and reply spans, then optim_step", async () => {
    const client = createTinkerClient({ baseUrl: standin.url });
    const backend = await openTinkerBackend({
      client,
      baseModel: "tiny-260",
      loraRank: 4,
      seed: 1,
      maxNewTokens: 8,
      renderer: openRenderer(`hf:${FIXTURE}`, 8),
      heartbeatMs: 0,
    });
    try {
      const r = backend.policy();
      const [sequence] = r.episodeSequences(
        episode,
        episode.turns.map((turn) => r.responseTokens(turn.action)),
      );
      const batch = [
        {
          tokens: sequence!.tokens,
          responses: sequence!.replies.map((span) => ({ start: span.start, end: span.end })),
        },
      ];
      const before = standin.requests.length;
      const stats = await backend.accumulate(
        batch,
        (logprobs) => logprobs.map((values) => new Float32Array(values.length).fill(1)),
        10,
      );
      expect(stats.tokens).toBeGreaterThan(0);
      expect((await backend.step(1e-3)).gradNorm).toBeGreaterThan(0);
      // The pass with a backward (the first is forward_only, for the current log-probs), as the stand-in decoded it.
      const trained = standin.requests
        .slice(before)
        .find((request) => request.path === "/api/v1/forward_backward" && request.body.forward_only !== true);
      const datum = (trained?.body as { data: { loss_fn_inputs: { weights: { dense: Uint8Array } } }[] }).data[0]!;
      const dense = datum.loss_fn_inputs.weights.dense;
      // Tinker's datums are shifted by one: weight p belongs to target token p + 1, the reply tokens' positions.
      const weighted = Array.from(
        new Float32Array(dense.buffer.slice(dense.byteOffset, dense.byteOffset + dense.byteLength)),
      ).flatMap((weight, p) => (weight === 0 ? [] : [p + 1]));
      expect(weighted).toEqual(
        sequence!.replies.flatMap((span) => Array.from({ length: span.end - span.start }, (_, i) => span.start + i)),
      );
    } finally {
      backend.dispose();
    }
  }, 60_000);
});
