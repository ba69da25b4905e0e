// What `budgetrl env-server` answers a reset or a step with, in OpenEnv's shape ({observation, reward, done}, the
// observation's own fields beside each other) and the JSON Schemas /schema gives of it:
//
//   observation.text           the messages the agent reads now, one after the other (budgetrl's budget sentence
//                              included, as the budget's mode words it)
//   observation.messages       the same as messages ({role, content, tool_call_id?}), for chat templates
//   observation.turn           the turn about to be taken in the budget's scope (the turns taken, once done)
//   observation.turns_left     the turns left (null when the budget is hidden)
//   observation.budget         the budget's label and mode
//   observation.valid_actions  the actions the state offers, as replies (text envs: what a random policy draws)
//   observation.tool_name, result, error   the answer to a call_tool action (OpenEnv's CallToolObservation)
//   observation.metadata       task_id, episode_id, success_reward, process_reward and optimal (--reward process),
//                              invalid, parsed_action, stop_reason and success once done (OpenEnv's clients read it)
//   reward                     the step's success reward (1 on the step that succeeds), plus the change of the
//                              budget-aware oracle's success probability under --reward process
//   done                       the episode ended: success, failure, the budget spent, or the env's own limit
import type { Json, JsonObject } from "../../core/json.js";
import type { Message, ToolSpec } from "../../core/message.js";
import type { EpisodeMoment } from "./episode-session.js";

export const REWARD_KINDS = ["success", "process"] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

/** An observation as OpenEnv serialises it. */
export interface StepPayload {
  readonly observation: JsonObject;
  readonly reward: number | null;
  readonly done: boolean;
}

/** Who the episode is for: the ids the observation carries, the reward asked for, the actions the state offers. */
export interface MomentContext {
  readonly taskId: string;
  readonly episodeId: string;
  readonly reward: RewardKind;
  /** Tell the actions the state offers (text envs, whose replies are the actions' texts). */
  readonly offerActions: boolean;
}

const messageJson = (message: Message): JsonObject => ({
  role: message.role,
  content: message.content,
  ...(message.toolCallId === undefined ? {} : { tool_call_id: message.toolCallId }),
});

/** The messages as one text, as an agent that reads text sees them. */
export function messagesText(messages: readonly Message[]): string {
  return messages.map((message) => message.content).join("\n\n");
}

/** The step's reward and the metadata that explains it. */
function rewardOf(moment: EpisodeMoment, kind: RewardKind): { reward: number; metadata: JsonObject } {
  const played = moment.played;
  if (played === undefined) return { reward: 0, metadata: {} };
  const success = played.turn.reward;
  const turn = played.turn;
  const facts: JsonObject = {
    segment: turn.segment,
    invalid: turn.invalid,
    parsed_action: turn.parsedAction,
    success_reward: success,
  };
  if (kind === "success") return { reward: success, metadata: facts };
  const processReward = turn.progress - played.progressBefore;
  return {
    reward: success + processReward,
    metadata: { ...facts, process_reward: processReward, optimal: turn.optimal ?? null },
  };
}

/** The reply to a reset or step. */
export function stepPayload(moment: EpisodeMoment, context: MomentContext): StepPayload {
  const { reward, metadata } = rewardOf(moment, context.reward);
  const episode = moment.episode;
  const observation: JsonObject = {
    text: messagesText(moment.messages),
    messages: moment.messages.map(messageJson),
    turn: moment.turn,
    turns_left: moment.budget.mode === "hidden" ? null : moment.turnsLeft,
    budget: { label: moment.budget.label, mode: moment.budget.mode, scope: moment.budget.scope },
    ...(context.offerActions && !moment.done ? { valid_actions: [...moment.validActions] } : {}),
    metadata: {
      task_id: context.taskId,
      episode_id: context.episodeId,
      ...metadata,
      ...(episode === undefined ? {} : { stop_reason: episode.stopReason, success: episode.success }),
    },
  };
  return { observation, reward: moment.played === undefined ? 0 : reward, done: moment.done };
}

/** A call_tool step's answer as OpenEnv's CallToolObservation carries it: the tool's output (its messages' text,
 * MCP's content list beside), on top of the step's observation. */
export function callToolPayload(payload: StepPayload, toolName: string, moment: EpisodeMoment): StepPayload {
  const output = messagesText(moment.messages.filter((message) => message.role === "tool"));
  const result: Json = { data: output, content: [{ type: "text", text: output }] };
  return { ...payload, observation: { ...payload.observation, tool_name: toolName, result, error: null } };
}

/** A tool as OpenEnv's Tool lists it (input_schema), or as MCP's tools/list does (inputSchema). */
export function toolJson(tool: ToolSpec, style: "openenv" | "mcp"): JsonObject {
  return style === "openenv"
    ? { name: tool.name, description: tool.description, input_schema: tool.parameters }
    : { name: tool.name, description: tool.description, inputSchema: tool.parameters };
}
