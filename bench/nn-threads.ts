// Does the second thread help? Times forward+backward of the reference batch on 1 and 2 threads (wall).
import { createRng } from "../src/core/rng.js";
import { createModel } from "../src/nn/model.js";

const rng = createRng(1);
const B = 16,
  T = 256;
const batch = {
  tokens: Int32Array.from({ length: B * T }, () => rng.int(260)),
  targets: Int32Array.from({ length: B * T }, () => rng.int(260)),
  batchSize: B,
  seqLen: T,
};
for (const threads of [1, 2, 1, 2]) {
  const model = await createModel({ seed: 0, threads });
  await model.lossAndGradient(batch);
  const t0 = performance.now();
  for (let i = 0; i < 3; i++) await model.forward(batch);
  const t1 = performance.now();
  console.log(`threads ${threads}: forward ${((t1 - t0) / 3).toFixed(0)} ms`);
  model.dispose();
}
