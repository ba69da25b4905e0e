// Env step throughput: each env driven by its own oracle (the first optimal action each turn), as the
// rollout engine's oracle policy would drive it, but without the engine. Counts env.step calls per second
// including oracle lookups, state keys and observation rendering. Several repeats; prints best and median.
//   npx tsx bench/envs.ts [--seconds 1] [--repeats 5]
import type { AnyEnv } from "../src/core/env.js";
import { assistantMessage } from "../src/core/message.js";
import { frozenlake } from "../src/envs/frozenlake/index.js";
import { hanoi } from "../src/envs/hanoi/index.js";
import { sokoban } from "../src/envs/sokoban/index.js";

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

/** Steps per second over about `seconds`, cycling through `tasks`. */
function measure(env: AnyEnv, tasks: readonly unknown[], seconds: number): number {
  let steps = 0;
  let taskIndex = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  while (performance.now() < deadline) {
    for (let episode = 0; episode < 50; episode++) {
      const task = tasks[taskIndex++ % tasks.length];
      let state = env.reset(task, { seed: taskIndex }).state;
      for (let turn = 0; turn < 1000; turn++) {
        const answer = env.oracle!.answer(state);
        const action = answer.optimal[0] ?? env.actions.valid(state)[0] ?? "Up";
        const result = env.step(state, assistantMessage(action));
        state = result.state;
        steps += 1;
        if (result.terminated) break;
      }
    }
  }
  return steps / ((performance.now() - start) / 1000);
}

const seconds = argument("seconds", 1);
const repeats = argument("repeats", 5);
const envs: readonly AnyEnv[] = [sokoban(), frozenlake(), hanoi({ disks: 6 })];
for (const env of envs) {
  const tasks = Array.from({ length: 200 }, (_, seed) => env.tasks.generate(seed));
  measure(env, tasks, 0.3); // warm-up (and oracle tables)
  const rates = Array.from({ length: repeats }, () => measure(env, tasks, seconds)).sort((a, b) => b - a);
  const median = rates[Math.floor(rates.length / 2)]!;
  console.log(
    `${env.spec.name.padEnd(10)} steps/s best ${Math.round(rates[0]!).toLocaleString("en-US")}  median ${Math.round(median).toLocaleString("en-US")}  (${repeats} x ${seconds}s, oracle-driven)`,
  );
}
