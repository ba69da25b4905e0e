// What the env contract (contract.ts) accepts as a well-formed reset and step: one user message per step for
// single-turn envs, or, for envs with several user turns (multiTurn), tool results then user messages with
// info.segment counting user turns; plus the info fields and stop reasons every step must carry.
import { expect } from "vitest";
import type { AnyEnv, StepResult, StopReason } from "../../src/core/env.js";
import type { Message } from "../../src/core/message.js";

/** What a well-formed step looks like under the suite's options. */
export interface StepShape {
  readonly multiTurn: boolean;
  readonly stopReasons: readonly StopReason[];
}

/** Tool results first, then user messages; every content a string, user messages not empty. */
function turnMessageProblems(observation: readonly Message[], terminated: boolean): string[] {
  const problems: string[] = [];
  if (!terminated && observation.length === 0) problems.push("no messages in the observation of a step that goes on");
  const roles = observation.map((message) => message.role);
  const firstUser = roles.indexOf("user");
  const before = roles.slice(0, firstUser < 0 ? roles.length : firstUser);
  if (!before.every((role) => role === "tool"))
    problems.push(`roles ${roles.join(",")}: not tool results before the user turn`);
  if (firstUser >= 0 && !roles.slice(firstUser).every((role) => role === "user"))
    problems.push(`roles ${roles.join(",")}: not only user messages from the user turn on`);
  for (const [at, message] of observation.entries()) {
    if (typeof message.content !== "string") problems.push(`message ${at}: content is not a string`);
    else if (message.role === "user" && message.content.length === 0)
      problems.push(`message ${at}: an empty user message`);
    if (message.role !== "user" && typeof message.toolCallId !== "string")
      problems.push(`message ${at} (${message.role}): no toolCallId`);
  }
  return problems;
}

/**
 * What is wrong with a step, as sentences ([] when it is well formed); `previousSegment`, when known, is info.segment
 * before the step. Plain checks, so that the fuzz loops (10,000 steps an env) pay for vitest's `expect` only when
 * one fails: expectNoProblems.
 */
export function stepProblems(
  env: AnyEnv,
  result: StepResult<unknown>,
  shape: StepShape,
  previousSegment?: number,
): string[] {
  const { observation, info } = result;
  const problems: string[] = [];
  if (shape.multiTurn) {
    problems.push(...turnMessageProblems(observation, result.terminated));
    if (!(Number.isInteger(info.segment) && info.segment >= 0)) problems.push(`segment ${info.segment}`);
    if (previousSegment !== undefined) {
      if (info.segment !== previousSegment && info.segment !== previousSegment + 1)
        problems.push(`segment ${info.segment} after ${previousSegment}`);
      if (info.segment > previousSegment && observation.at(-1)?.role !== "user")
        problems.push(`a new segment that does not end with a user message`);
    }
  } else {
    const roles = observation.map((message) => message.role).join(",");
    if (observation.length !== 1 || observation[0]!.role !== "user")
      problems.push(`roles ${roles}, not one user message`);
    const content: unknown = observation[0]?.content;
    if (typeof content !== "string" || content.length === 0) problems.push(`user content ${JSON.stringify(content)}`);
    if (info.segment !== 0) problems.push(`segment ${info.segment} in a single-turn env`);
  }
  if (!Number.isFinite(result.reward)) problems.push(`reward ${result.reward}`);
  if (!Number.isFinite(info.progress)) problems.push(`progress ${info.progress}`);
  const key = env.actions.stateKey(result.state);
  if (info.stateKey !== key) problems.push(`info.stateKey ${info.stateKey}, the state's key ${key}`);
  if (info.parsedAction === null && info.invalid !== true) problems.push("no parsed action, yet not invalid");
  if (result.terminated && !shape.stopReasons.includes(info.stopReason!))
    problems.push(`stop reason ${info.stopReason}, expected one of ${shape.stopReasons.join(", ")}`);
  if (!result.terminated && info.stopReason !== undefined)
    problems.push(`stop reason ${info.stopReason} on a step that goes on`);
  return problems;
}

/** Fails listing `problems` when there are any (one `expect`, and none when all is well). */
export function expectNoProblems(problems: readonly string[]): void {
  if (problems.length > 0) expect(problems).toEqual([]);
}

/** `previousSegment`, when known, is info.segment before the step. */
export function expectWellFormedStep(
  env: AnyEnv,
  result: StepResult<unknown>,
  shape: StepShape,
  previousSegment?: number,
): void {
  expectNoProblems(stepProblems(env, result, shape, previousSegment));
}

/** Reset messages: [system, user], or under multiTurn system messages then the first user turn. */
export function expectResetMessages(observation: readonly Message[], multiTurn: boolean): void {
  const roles = observation.map((message) => message.role);
  if (multiTurn) {
    const firstUser = roles.indexOf("user");
    expect(firstUser).toBeGreaterThanOrEqual(0);
    expect(roles.slice(0, firstUser).every((role) => role === "system")).toBe(true);
    expect(roles.slice(firstUser).every((role) => role === "user")).toBe(true);
  } else expect(roles).toEqual(["system", "user"]);
  expect(observation.every((message) => message.content.length > 0)).toBe(true);
}
