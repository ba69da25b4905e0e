// Benchmark of the in-process model at the reference size (vocab 260, context 256, 4 layers, d_model 128,
// 4 heads, SwiGLU 344) against PyTorch eager on the same workload in the same run, when Debian's PyTorch is
// importable from /usr/bin/python3 (bench/nn_torch.py):
//   training: tokens/s of forward + backward + AdamW on a 16 x 256 batch
//   sampling: new tokens/s for 16 prompts of 200 tokens, 32 new tokens each, KV cache (prefill included);
//             decoding alone is also reported (time minus a 1-new-token run)
// Best of N repeats (the machine is shared: timings are noisy). Run: npm run bench:nn [-- --repeats N]
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { createRng } from "../src/core/rng.js";
import { kernelsBuild } from "../src/nn/kernels/wasm.js";
import { createModel, type TinyModel } from "../src/nn/model.js";

const B = 16;
const T = 256;
const PROMPT = 200;
const NEW = 32;
const argIndex = process.argv.indexOf("--repeats");
const REPEATS = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 3;

function randomTokens(count: number, seed: number): Int32Array {
  const rng = createRng(seed);
  return Int32Array.from({ length: count }, () => rng.int(260));
}

async function trainRate(model: TinyModel): Promise<number> {
  const batch = { tokens: randomTokens(B * T, 1), targets: randomTokens(B * T, 2), batchSize: B, seqLen: T };
  const step = async (): Promise<void> => {
    await model.lossAndGradient(batch);
    model.step();
  };
  await step();
  let best = 0;
  for (let r = 0; r < REPEATS; r++) {
    const start = performance.now();
    for (let i = 0; i < 3; i++) await step();
    best = Math.max(best, (3 * B * T) / ((performance.now() - start) / 1000));
  }
  return best;
}

async function sampleRates(model: TinyModel): Promise<{ sample: number; decode: number }> {
  const flat = randomTokens(B * PROMPT, 3);
  const prompts = Array.from({ length: B }, (_, b) => Array.from(flat.subarray(b * PROMPT, (b + 1) * PROMPT)));
  const seeds = prompts.map((_, i) => i);
  const run = async (maxNewTokens: number): Promise<number> => {
    const start = performance.now();
    await model.sample(prompts, { maxNewTokens, temperature: 0.8, stopTokens: [], seeds });
    return (performance.now() - start) / 1000;
  };
  await run(NEW);
  let best = Infinity;
  let prefill = Infinity;
  for (let r = 0; r < REPEATS; r++) {
    best = Math.min(best, await run(NEW));
    prefill = Math.min(prefill, await run(1));
  }
  return { sample: (B * NEW) / best, decode: (B * (NEW - 1)) / Math.max(best - prefill, 1e-9) };
}

interface TorchFigures {
  readonly train_tokens_per_s: number;
  readonly sample_tokens_per_s: number;
  readonly decode_tokens_per_s: number;
  readonly torch: string;
}

function torchFigures(): TorchFigures | undefined {
  const python = "/usr/bin/python3";
  if (!existsSync(python)) return undefined;
  try {
    execFileSync(python, ["-c", "import torch"], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  const script = fileURLToPath(new URL("./nn_torch.py", import.meta.url));
  const out = execFileSync(python, [script, "--repeats", String(REPEATS)], { encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop() ?? "{}") as TorchFigures;
}

const load = loadavg()[0]!;
if (load > 0.5)
  console.log(
    `note: load average ${load.toFixed(2)} before the run; other processes skew both sides (PyTorch's OpenMP threads most)`,
  );
// PyTorch first, before our worker threads exist.
const torch = torchFigures();
const model = await createModel({ seed: 0 });
console.log(
  `budgetrl nn: backend ${model.backend} (${kernelsBuild()} kernels), ${model.threads} threads, ${model.shards} shards, best of ${REPEATS}`,
);
const train = await trainRate(model);
const { sample, decode } = await sampleRates(model);
console.log(
  `ours     training ${train.toFixed(0)} tokens/s, sampling ${sample.toFixed(0)} tokens/s (decoding alone ${decode.toFixed(0)} tokens/s)`,
);
model.dispose();
if (torch === undefined) {
  console.log("PyTorch not found (/usr/bin/python3 -c 'import torch' failed): our figures only");
} else {
  console.log(
    `pytorch  training ${torch.train_tokens_per_s.toFixed(0)} tokens/s, sampling ${torch.sample_tokens_per_s.toFixed(0)} tokens/s (decoding alone ${torch.decode_tokens_per_s.toFixed(0)} tokens/s), torch ${torch.torch}, 2 threads`,
  );
  console.log(`training: ${(train / torch.train_tokens_per_s).toFixed(2)}x PyTorch`);
  console.log(`sampling: ${(sample / torch.sample_tokens_per_s).toFixed(2)}x PyTorch`);
  console.log(`decoding: ${(decode / torch.decode_tokens_per_s).toFixed(2)}x PyTorch`);
}
