// Outside-reference check: our log-probs against the Hugging Face Llama equations in PyTorch reading our
// checkpoint (bench/nn_hf_check.py), for a briefly trained reference-size model. Needs Debian's PyTorch in
// /usr/bin/python3. Run: npx tsx bench/nn-hf-check.ts   (prints the max abs difference; < 1e-4 passes)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { saveCheckpoint } from "../src/nn/checkpoint.js";
import { createModel } from "../src/nn/model.js";
import { encodeText, END, USER, ASSISTANT } from "../src/nn/tokenizer.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-hf-"));
for (const tiedEmbeddings of [false, true]) {
  const model = await createModel({ seed: 5, config: { tiedEmbeddings } });
  const text = [USER, ...encodeText("push the box left; the grid is 6x6"), END, ASSISTANT, ...encodeText("left"), END];
  const T = text.length - 1;
  for (let i = 0; i < 5; i++) {
    await model.lossAndGradient({
      tokens: Int32Array.from(text.slice(0, -1)),
      targets: Int32Array.from(text.slice(1)),
      batchSize: 1,
      seqLen: T,
    });
    model.step({ learningRate: 3e-3 });
  }
  await saveCheckpoint(model, dir);
  const [ours] = await model.logprobs([text]);
  const script = fileURLToPath(new URL("./nn_hf_check.py", import.meta.url));
  const theirs = JSON.parse(
    execFileSync("/usr/bin/python3", [script, dir, JSON.stringify(text)], { encoding: "utf8" }),
  ) as number[];
  const diff = Math.max(...theirs.map((v, i) => Math.abs(v - ours![i]!)));
  console.log(
    `tied=${tiedEmbeddings}: ${theirs.length} log-probs, max abs difference vs Hugging Face Llama equations ${diff.toExponential(2)} ${diff < 1e-4 ? "OK" : "MISMATCH"}`,
  );
  model.dispose();
}
rmSync(dir, { recursive: true, force: true });
