// One context of bench/train.ts alone, for profiling: an SFT warm start kept in --base (made once, reused), then
// --steps RL steps (a fresh run each time), with wall time per phase of each step: generate (rollouts and
// sampling) and update (training forward and backward, AdamW). Run with `npx tsx --cpu-prof bench/train-profile.ts`
// for CPU profiles (one per thread). Not a reference-paired benchmark: use bench/train.ts for figures.
// Run: npx tsx bench/train-profile.ts [--context 256] [--base /tmp/budgetrl-profile-base] [--steps 1]
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runSft } from "../src/rl/sft-run.js";
import { train } from "../src/rl/train.js";
import { rlConfig, warmStartConfig } from "./rl-setup.js";

const { values } = parseArgs({
  options: {
    context: { type: "string", default: "256" },
    base: { type: "string", default: join(tmpdir(), "budgetrl-profile-base") },
    steps: { type: "string", default: "1" },
  },
});
const context = values.context;
const base = `${values.base}-${context}`;
if (!existsSync(join(base, "budgetrl.json"))) {
  rmSync(base, { recursive: true, force: true });
  await runSft({ out: base, config: warmStartConfig(40, Number(context)) });
}
const dir = mkdtempSync(join(tmpdir(), "budgetrl-profile-"));
try {
  let cpu = process.cpuUsage();
  await train({
    out: dir,
    config: rlConfig(base, Number(values.steps)),
    onStep: (metrics) => {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      console.log(
        `context ${context} step ${metrics.step}: ${metrics.seconds.toFixed(2)} s (generate ${metrics.generateSeconds.toFixed(2)}, update ${metrics.updateSeconds.toFixed(2)}; ${((used.user + used.system) / 1e6).toFixed(1)} CPU s), ${metrics.tokens} tokens, ${metrics.processedTokens} processed, success ${metrics.success.toFixed(3)}, turns ${metrics.turns.toFixed(1)}, zero-gradient groups ${metrics.zeroGradientGroups}`,
      );
    },
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
