// One client's session on `budgetrl env-server` (a WebSocket connection, or an MCP session over HTTP): the episode it
// plays now, reset and stepped by its messages. A reset reads OpenEnv's fields (seed, episode_id) and budgetrl's:
//
//   task         the task's index among the server's tasks, or its id (server-tasks.ts)
//   budget       "7", "50%", "1.25x" (resolved against the task as an evaluation resolves it); default --budget
//   budget_mode  announced | remaining | hidden; default --budget-mode
//   budget_scope episode | user-turn; default --budget-scope
//
// so that a trainer draws a budget per group (BudgetMix). The episode seed is `seed` (the task is then task seed mod
// N unless `task` names it), else one derived from the server's seed. A field that is wrong is a SessionProblem
// (OpenEnv's VALIDATION_ERROR), and the session is left as it was.
import { z } from "zod";
import type { EpisodeSpec } from "../../agent/rollout.js";
import {
  BUDGET_MODES,
  BUDGET_SCOPES,
  isBudgetProblem,
  readBudgetSpec,
  resolveBudget,
  taskBudgetBasis,
  type Budget,
} from "../../core/budget.js";
import type { AnyEnv } from "../../core/env.js";
import type { Episode } from "../../core/episode.js";
import { thrownMessage } from "../../core/errors.js";
import type { JsonObject } from "../../core/json.js";
import { deriveSeed } from "../../core/rng.js";
import { resetRequestSchema, type WsErrorCode } from "../../envs/openenv/wire.js";
import { readAction } from "./actions.js";
import { startEpisodeSession, type EpisodeSession } from "./episode-session.js";
import { callToolPayload, stepPayload, toolJson, type RewardKind, type StepPayload } from "./observation.js";
import type { Recorder } from "./recorder.js";
import type { ServerTask, ServerTasks } from "./server-tasks.js";

/** A message the session refuses, with OpenEnv's error code. */
export class SessionProblem extends Error {
  constructor(
    readonly code: WsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SessionProblem";
  }
}

/** What every session of a server shares: the env, its tasks and defaults, and where episodes are stored (--db: the
 * recorder's place and record). */
export interface SessionHost extends Pick<Recorder, "place" | "record"> {
  readonly env: AnyEnv;
  readonly tasks: ServerTasks;
  readonly seed: number;
  readonly defaults: Pick<Budget, "mode" | "scope"> & { readonly budget: string };
  readonly reward: RewardKind;
  /** A fresh episode number (episode ids and seeds of resets that give none). */
  readonly episodeNumber: () => number;
}

const resetFieldsSchema = resetRequestSchema.extend({
  task: z.union([z.number().int().min(0), z.string().min(1)]).nullish(),
  budget: z.union([z.string(), z.number().int().min(1)]).nullish(),
  budget_mode: z.enum(BUDGET_MODES).nullish(),
  budget_scope: z.enum(BUDGET_SCOPES).nullish(),
});
type ResetFields = z.output<typeof resetFieldsSchema>;

function taskOf(host: SessionHost, fields: ResetFields): ServerTask {
  if (typeof fields.task === "number") {
    if (fields.task >= host.tasks.count)
      throw new SessionProblem("VALIDATION_ERROR", `task ${fields.task}: the server has ${host.tasks.count} tasks`);
    return host.tasks.at(fields.task);
  }
  if (typeof fields.task === "string") {
    const found = host.tasks.byId(fields.task);
    if (typeof found === "string") throw new SessionProblem("VALIDATION_ERROR", found);
    return found;
  }
  if (typeof fields.seed === "number") return host.tasks.at(fields.seed % host.tasks.count);
  return host.tasks.next();
}

function budgetOf(host: SessionHost, fields: ResetFields, task: ServerTask): Budget {
  const label = fields.budget ?? host.defaults.budget;
  const spec = readBudgetSpec(String(label));
  if (isBudgetProblem(spec)) throw new SessionProblem("VALIDATION_ERROR", `budget: ${spec.problem}`);
  const scope = fields.budget_scope ?? host.defaults.scope;
  try {
    return resolveBudget(
      spec,
      taskBudgetBasis(host.env, task.task, scope),
      fields.budget_mode ?? host.defaults.mode,
      scope,
    );
  } catch (error) {
    throw new SessionProblem("VALIDATION_ERROR", `budget: ${thrownMessage(error)}`);
  }
}

/** A client's session: its episode, reset and stepped by its messages. */
export interface ClientSession {
  reset(data: Readonly<Record<string, unknown>>): Promise<StepPayload>;
  step(data: unknown): Promise<StepPayload>;
  state(): JsonObject;
  /** The functions of the episode now (envs with tools), as OpenEnv's Tool or MCP's tools/list gives them. */
  tools(style: "openenv" | "mcp"): JsonObject[];
  close(): void;
}

interface Playing {
  readonly session: EpisodeSession;
  readonly task: ServerTask;
  readonly episodeId: string;
  steps: number;
  last?: StepPayload;
}

export function openClientSession(host: SessionHost): ClientSession {
  let playing: Playing | undefined;
  let calls = 0;
  const withTools = host.env.actions.message !== undefined;
  const context = (now: Playing) => ({
    taskId: now.task.id,
    episodeId: now.episodeId,
    reward: host.reward,
    offerActions: !withTools,
  });
  const finish = async (now: Playing, payload: StepPayload, episode: Episode | undefined): Promise<StepPayload> => {
    now.last = payload;
    if (episode !== undefined) await host.record(episode, now.task);
    return payload;
  };
  return {
    async reset(data) {
      const parsed = resetFieldsSchema.safeParse(data);
      if (!parsed.success) throw new SessionProblem("VALIDATION_ERROR", z.prettifyError(parsed.error));
      const fields = parsed.data;
      const task = taskOf(host, fields);
      const budget = budgetOf(host, fields, task);
      const number = host.episodeNumber();
      const episodeId = fields.episode_id ?? `episode-${number}`;
      const { run, sample } = await host.place(fields.episode_id ?? undefined, task.index, budget.label);
      const seed = fields.seed ?? deriveSeed(host.seed, "env-server", number);
      const spec: EpisodeSpec<unknown> = {
        run,
        task: task.task,
        taskId: task.id,
        taskIndex: task.index,
        budget,
        sample,
        seed,
      };
      playing?.session.abandon();
      const now: Playing = { session: startEpisodeSession(host.env, spec), task, episodeId, steps: 0 };
      playing = now;
      const moment = await now.session.start();
      return finish(now, stepPayload(moment, context(now)), moment.episode);
    },
    async step(data) {
      const now = playing;
      const action = readAction(data, withTools, () => `call_${++calls}`);
      if (!action.ok) throw new SessionProblem("VALIDATION_ERROR", `invalid action: ${action.problem}`);
      if (action.action.kind === "list_tools") {
        const tools = this.tools("openenv");
        return { observation: { tools, metadata: {} }, reward: null, done: now?.session.over() ?? false };
      }
      if (now === undefined) throw new SessionProblem("EXECUTION_ERROR", "no episode: reset first");
      if (now.session.over())
        throw new SessionProblem("EXECUTION_ERROR", "the episode is over: reset to start another");
      now.steps++;
      const moment = await now.session.step(action.action.message);
      const payload = stepPayload(moment, context(now));
      const answered =
        action.action.toolName === undefined ? payload : callToolPayload(payload, action.action.toolName, moment);
      return finish(now, answered, moment.episode);
    },
    state() {
      if (playing === undefined)
        return { episode_id: null, step_count: 0, task_id: null, budget: null, turns_left: null, done: false };
      const { session, task, episodeId, steps } = playing;
      const left = playing.last?.observation["turns_left"];
      return {
        episode_id: episodeId,
        step_count: steps,
        task_id: task.id,
        budget: session.budget.label,
        turns_left: typeof left === "number" ? left : null,
        done: session.over(),
      };
    },
    tools(style) {
      if (playing !== undefined) return playing.session.tools().map((tool) => toolJson(tool, style));
      return [];
    },
    close() {
      playing?.session.abandon();
      playing = undefined;
    },
  };
}
