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
function expectTurnMessages(observation: readonly Message[], terminated: boolean): void {
  if (!terminated) expect(observation.length).toBeGreaterThan(0);
  const roles = observation.map((message) => message.role);
  const firstUser = roles.indexOf("user");
  expect(roles.slice(0, firstUser < 0 ? roles.length : firstUser).every((role) => role === "tool")).toBe(true);
  if (firstUser >= 0) expect(roles.slice(firstUser).every((role) => role === "user")).toBe(true);
  for (const message of observation) {
    expect(typeof message.content).toBe("string");
    if (message.role === "user") expect(message.content.length).toBeGreaterThan(0);
    else expect(typeof message.toolCallId).toBe("string");
  }
}

/** `previousSegment`, when known, is info.segment before the step. */
export function expectWellFormedStep(
  env: AnyEnv,
  result: StepResult<unknown>,
  shape: StepShape,
  previousSegment?: number,
): void {
  if (shape.multiTurn) {
    expectTurnMessages(result.observation, result.terminated);
    expect(Number.isInteger(result.info.segment) && result.info.segment >= 0).toBe(true);
    if (previousSegment !== undefined) {
      expect([previousSegment, previousSegment + 1]).toContain(result.info.segment);
      if (result.info.segment > previousSegment) expect(result.observation.at(-1)?.role).toBe("user");
    }
  } else {
    expect(result.observation.length).toBe(1);
    expect(result.observation[0]!.role).toBe("user");
    expect(typeof result.observation[0]!.content).toBe("string");
    expect(result.observation[0]!.content.length).toBeGreaterThan(0);
    expect(result.info.segment).toBe(0);
  }
  expect(Number.isFinite(result.reward)).toBe(true);
  expect(Number.isFinite(result.info.progress)).toBe(true);
  expect(result.info.stateKey).toBe(env.stateKey(result.state));
  if (result.info.parsedAction === null) expect(result.info.invalid).toBe(true);
  if (result.terminated) expect(shape.stopReasons).toContain(result.info.stopReason);
  else expect(result.info.stopReason).toBeUndefined();
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
