// Finite-difference checks of the hand-written backward pass, every parameter tensor by name, for the
// cross-entropy loss and for an arbitrary per-token weighted log-prob loss with an entropy term. Each check
// compares the analytic directional derivative g.u with (L(w + eps u) - L(w - eps u)) / (2 eps) along a
// seeded random direction u of unit norm inside that tensor (float32 model, float64 loss sums).
import { describe, expect, it } from "vitest";
import { createModel, type TinyModel, type TokenBatch } from "../../src/nn/model.js";
import { randomArray, randomBatch, tinyConfig } from "./helpers.js";

const EPS = 1e-2;

interface LossSpec {
  readonly coefficients: Float32Array;
  readonly entropyCoefficients: Float32Array | undefined;
  readonly normaliser: number;
}

async function lossAt(model: TinyModel, batch: TokenBatch, spec: LossSpec): Promise<number> {
  const { logprobs, entropy } = await model.forward(batch);
  let loss = 0;
  for (let i = 0; i < logprobs.length; i++) {
    loss -= spec.coefficients[i]! * logprobs[i]! + (spec.entropyCoefficients?.[i] ?? 0) * entropy[i]!;
  }
  return loss / spec.normaliser;
}

async function checkAllTensors(backend: "reference" | "wasm", batch: TokenBatch, spec: LossSpec): Promise<void> {
  const model = await createModel({ config: tinyConfig, seed: 3, backend, threads: 1 });
  // Larger weights than the default init so every path carries signal.
  const params = model.parameters();
  const noise = randomArray(params.length, 4, 0.3);
  for (let i = 0; i < params.length; i++) params[i] = params[i]! + noise[i]!;
  model.weightsChanged();
  await model.forward(batch);
  await model.backward(spec.coefficients, {
    normaliser: spec.normaliser,
    ...(spec.entropyCoefficients ? { entropyCoefficients: spec.entropyCoefficients } : {}),
  });
  const grads = Float32Array.from(model.gradients());
  const report: string[] = [];
  for (const [index, tensor] of model.specs.entries()) {
    const u = randomArray(tensor.length, 100 + index);
    const norm = Math.sqrt(u.reduce((s, x) => s + x * x, 0));
    let analytic = 0;
    for (let i = 0; i < tensor.length; i++) analytic += grads[tensor.offset + i]! * (u[i]! / norm);
    const base = Float32Array.from(params.subarray(tensor.offset, tensor.offset + tensor.length));
    const shift = async (sign: number): Promise<number> => {
      for (let i = 0; i < tensor.length; i++) params[tensor.offset + i] = base[i]! + (sign * EPS * u[i]!) / norm;
      model.weightsChanged();
      return lossAt(model, batch, spec);
    };
    const numeric = ((await shift(1)) - (await shift(-1))) / (2 * EPS);
    params.set(base, tensor.offset);
    model.weightsChanged();
    const error = Math.abs(numeric - analytic);
    report.push(
      `${tensor.name}: analytic ${analytic.toExponential(4)} numeric ${numeric.toExponential(4)} diff ${error.toExponential(2)}`,
    );
    expect(error, report.join("\n")).toBeLessThan(2e-3 + 2e-2 * Math.abs(numeric));
  }
  model.dispose();
}

describe("backward pass against finite differences", () => {
  const B = 3,
    T = 7;
  const batch = { ...randomBatch(tinyConfig, B, T, 5), lengths: [7, 4, 6] };
  const mask = Float32Array.from({ length: B * T }, (_, i) => (i % T < batch.lengths[Math.floor(i / T)]! ? 1 : 0));
  const crossEntropy: LossSpec = {
    coefficients: mask,
    entropyCoefficients: undefined,
    normaliser: mask.reduce((a, b) => a + b, 0),
  };
  const weighted: LossSpec = {
    coefficients: randomArray(B * T, 6).map((c, i) => c * mask[i]!),
    entropyCoefficients: randomArray(B * T, 7, 0.5).map((c, i) => c * mask[i]!),
    normaliser: 3,
  };

  it.each(["reference", "wasm"] as const)("cross-entropy gradient of every tensor (%s kernels)", async (backend) => {
    await checkAllTensors(backend, batch, crossEntropy);
  });

  it.each(["reference", "wasm"] as const)(
    "per-token weighted log-prob + entropy gradient of every tensor (%s kernels)",
    async (backend) => {
      await checkAllTensors(backend, batch, weighted);
    },
  );

  // Targets on some rows only (RL: replies between observations): the last block and the head run on those
  // rows alone (src/nn/outputs.ts); spans of several rows, single rows, a row 0, a sequence without any.
  const sparseTargets = Int32Array.from(batch.targets, (t, i) => ([1, 2, 5, 7, 9, 10, 11, 16].includes(i) ? t : -1));
  const sparseBatch = { ...batch, targets: sparseTargets };
  const sparseMask = Float32Array.from(sparseTargets, (t, i) => (t >= 0 ? mask[i]! : 0));
  it.each(["reference", "wasm"] as const)(
    "gradient of every tensor with targets on some rows only (%s kernels)",
    async (backend) => {
      const spec: LossSpec = {
        coefficients: randomArray(B * T, 8).map((c, i) => c * sparseMask[i]!),
        entropyCoefficients: randomArray(B * T, 9, 0.5).map((c, i) => c * sparseMask[i]!),
        normaliser: 2,
      };
      await checkAllTensors(backend, sparseBatch, spec);
    },
  );

  it("tied embeddings get the gradient of both uses", async () => {
    const config = { ...tinyConfig, tiedEmbeddings: true };
    const model = await createModel({ config, seed: 1, backend: "reference", threads: 1 });
    expect(model.specs.map((s) => s.name)).not.toContain("lm_head.weight");
    const b = randomBatch(config, 2, 5, 9);
    await model.lossAndGradient(b);
    const g = model.gradients();
    const embed = model.specs[0]!;
    const raw = randomArray(embed.length, 10);
    const norm = Math.sqrt(raw.reduce((s, x) => s + x * x, 0));
    const u = raw.map((x) => x / norm);
    let analytic = 0;
    for (let i = 0; i < embed.length; i++) analytic += g[i]! * u[i]!;
    const p = model.parameters();
    const base = Float32Array.from(p.subarray(0, embed.length));
    const at = async (sign: number): Promise<number> => {
      for (let i = 0; i < embed.length; i++) p[i] = base[i]! + sign * EPS * u[i]!;
      model.weightsChanged();
      return (await model.forward(b)).loss;
    };
    const numeric = ((await at(1)) - (await at(-1))) / (2 * EPS);
    expect(Math.abs(numeric - analytic), `analytic ${analytic} numeric ${numeric}`).toBeLessThan(
      2e-3 + 2e-2 * Math.abs(numeric),
    );
    model.dispose();
  });
});
