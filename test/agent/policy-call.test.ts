import { describe, expect, it } from "vitest";
import { createPolicyCaller, replyProblem } from "../../src/agent/policy-call.js";
import { runEpisode } from "../../src/agent/rollout.js";
import { runEpisodes } from "../../src/agent/run-episodes.js";
import { parseBudgetList, type Budget } from "../../src/core/budget.js";
import { StoppedError } from "../../src/core/errors.js";
import type { Episode } from "../../src/core/episode.js";
import { policyFromFunction, type Policy, type PolicyContext } from "../../src/core/policy.js";
import { oraclePolicy } from "../../src/policies/scripted/oracle.js";
import { sokoban } from "../../src/envs/sokoban/index.js";
import { stepsEnv } from "../helpers/steps-env.js";

const budget: Budget = { turns: 10, mode: "announced", scope: "episode", label: "10" };
const spec = <T>(task: T) => ({ run: "test", task, taskId: "t", taskIndex: 0, budget, sample: 0, seed: 5 });
const never = (): Promise<never> => new Promise<never>(() => undefined);

describe("guarded policy calls", () => {
  it("turns a policy that never answers into an error episode after the turn timeout, keeping the turns before", async () => {
    let calls = 0;
    const hangs = policyFromFunction("hangs", () => (++calls === 3 ? never() : "go"));
    const env = stepsEnv();
    const episode = await runEpisode(env, hangs, spec({ id: "x", segments: [5] }), { turnTimeout: 0.05 });
    expect(episode.stopReason).toBe("error");
    expect(episode.error).toMatch(/policy hangs did not answer within the turn timeout of 0.05 s/);
    expect(episode.turnsUsed).toBe(2);
  });

  it("makes a reply that is not a string or a message with string content a policy error naming it", async () => {
    const env = stepsEnv();
    const cases: [unknown, RegExp][] = [
      [42, /policy odd returned a number \(42\)/],
      [undefined, /returned undefined/],
      [{ text: "go" }, /returned a message whose content is undefined/],
      [{ role: "assistant", content: ["go"] }, /a message whose content is an array of 1 item/],
      [null, /returned null/],
    ];
    for (const [reply, pattern] of cases) {
      const odd = policyFromFunction("odd", () => reply as string);
      const episode = await runEpisode(env, odd, spec(env.tasks.generate(0)));
      expect(episode.stopReason, String(reply)).toBe("error");
      expect(episode.error, String(reply)).toMatch(pattern);
      expect(episode.turns).toHaveLength(0);
    }
    const bare: Policy = { name: "bare", act: async () => ({ text: "go" }) as never };
    const episode = await runEpisode(env, bare, spec(env.tasks.generate(0)));
    expect(episode.error).toMatch(/policy bare returned an object with keys \{text\}/);
  });

  it("abandons a call in flight when the stop signal fires, whatever the policy", async () => {
    const controller = new AbortController();
    const caller = createPolicyCaller({ signal: controller.signal });
    let asked!: () => void;
    const calling = new Promise<void>((resolve) => (asked = resolve));
    const stuck: Policy = {
      name: "stuck",
      act: () => {
        asked();
        return never();
      },
    };
    const call = caller.call(stuck, [], {} as PolicyContext);
    await calling;
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(StoppedError);
    await expect(caller.call(stuck, [], {} as PolicyContext)).rejects.toBeInstanceOf(StoppedError);
    caller.dispose();
  });

  it("lets the event loop run during a run of a policy that answers in microtasks (so Ctrl-C is heard)", async () => {
    const env = sokoban();
    const controller = new AbortController();
    const finished: Episode[] = [];
    // A macrotask: it can only run if the rollout engine yields to the event loop.
    setImmediate(() => controller.abort());
    await runEpisodes(env, oraclePolicy(), {
      run: "r",
      seed: 1,
      tasks: Array.from({ length: 50 }, (_, i) => env.tasks.generate(i)),
      budgets: parseBudgetList("100%"),
      mode: "announced",
      samples: 200,
      signal: controller.signal,
      onEpisode: (episode) => void finished.push(episode),
    });
    expect(controller.signal.aborted).toBe(true);
    expect(finished.length).toBeLessThan(50 * 200);
  });

  it("describes what is wrong with an Act", () => {
    expect(replyProblem({ message: { role: "assistant", content: "x" } })).toBeUndefined();
    expect(replyProblem("x")).toBe('a string ("x")');
    expect(replyProblem({ message: 7 })).toBe("a message that is a number (7)");
  });
});
