// The openenv env against budgetrl's own env-server, for every env: the oracle policy through `openenv:` scores what
// it scores in process, episode for episode (the same task, seed and budget give the same outcome, turns and return).
import { afterAll, describe, expect, it } from "vitest";
import { runEpisode } from "../../../src/agent/rollout.js";
import { createEnv, ENV_NAMES } from "../../../src/envs/registry.js";
import { evaluate } from "../../../src/eval/evaluate.js";
import { oraclePolicy } from "../../../src/policies/scripted/oracle.js";
import { serveEnv, type EnvServing } from "../../../src/serve/openenv/serve-env.js";
import { serverTasks } from "../../../src/serve/openenv/server-tasks.js";
import { twinOracle } from "./twin-oracle.js";

const OPTIONS: Record<string, Record<string, string>> = { bfcl: { categories: "base" } };
const TASKS = 3;
const TURNS = 12;
const servers: EnvServing[] = [];

afterAll(async () => {
  for (const server of servers) await server.close();
});

describe("openenv: against budgetrl env-server", () => {
  it.each(ENV_NAMES)("plays %s with the oracle as in process, episode for episode", async (name) => {
    const options = OPTIONS[name] ?? {};
    const server = await serveEnv({ env: name, envOptions: options, port: 0, tasks: TASKS, seed: 1 });
    servers.push(server);
    const local = createEnv(name, options);
    const tasks = serverTasks(local, { tasks: TASKS, seed: 1 });
    const taskOf = (taskId: string) => tasks.at(Number(taskId.replace("task-", ""))).task;
    const result = await evaluate({
      env: `openenv:${server.url}`,
      envOptions: { task: "task", tasks: String(Math.min(TASKS, tasks.count)) },
      policy: twinOracle(local, taskOf, TURNS),
      tasks: Math.min(TASKS, tasks.count),
      samples: 2,
      ks: [1],
      budgets: [String(TURNS)],
      bootstrap: 0,
    });
    expect(result.errors).toBe(0);
    expect(result.episodes.length).toBe(Math.min(TASKS, tasks.count) * 2);
    for (const remote of result.episodes) {
      const task = tasks.at(remote.taskIndex);
      const inProcess = await runEpisode(local, oraclePolicy(), {
        run: "in-process",
        task: task.task,
        taskId: task.id,
        taskIndex: task.index,
        budget: remote.budget,
        sample: remote.sample,
        seed: remote.seed,
      });
      const outcome = (episode: typeof remote) => ({
        success: episode.success,
        stopReason: episode.stopReason,
        turnsUsed: episode.turnsUsed,
        return: episode.return,
        actions: episode.turns.map((turn) => turn.parsedAction),
      });
      expect(outcome(remote), `${name} task ${remote.taskIndex} sample ${remote.sample}`).toEqual(outcome(inProcess));
    }
    expect(result.episodes.some((episode) => episode.success)).toBe(true);
  });
});
