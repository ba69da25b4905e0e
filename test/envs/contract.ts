// The contract every env passes (the built-in ones, BFCL, user envs): determinism of generate/reset/step for
// equal seeds, JSON round trips, state keys, oracle consistency, and replies that never throw (10,000 fuzzed
// strings by default: random unicode, control characters, huge texts, <answer> nesting).
// Canonical actions (listed, oracle) are sent as the env's actionMessage when it has one (tool-calling envs),
// else as the assistant's text; garbage and fuzzed replies are sent as text.
// Envs with several user turns per task (BFCL) set multiTurn: observations may then hold several messages
// (tool results, then the next user turn), a user turn spans several steps and info.segment counts user turns.
// Usage, in an env's test file:   runEnvContract("sokoban", () => sokoban());   (options: EnvContractOptions)
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AnyEnv, StepResult, StopReason } from "../../src/core/env.js";
import { DataError } from "../../src/core/errors.js";
import { canonicalJson } from "../../src/core/json.js";
import { assistantMessage, type Message } from "../../src/core/message.js";
import { createRng, type Rng } from "../../src/core/rng.js";
import {
  expectNoProblems,
  expectResetMessages,
  expectWellFormedStep,
  stepProblems,
  type StepShape,
} from "./contract-steps.js";

export interface EnvContractOptions {
  /** Transitions are deterministic: following the oracle reaches success in exactly `remaining` turns. */
  readonly deterministic: boolean;
  /** Seeds of the tasks the suite plays (default 0..11). */
  readonly seeds?: readonly number[];
  /** Fuzzed replies (default 10,000). */
  readonly fuzzRuns?: number;
  /** Longest episode the suite plays out (default 400 turns). */
  readonly maxTurns?: number;
  /** Text the observation after an unreadable reply must contain to explain the format (default "<answer>"). */
  readonly formatHint?: string;
  /** Whether every non-terminal state lists its valid actions (default true; tool-calling envs may not). When
   * false, validActions is still what a random walk picks from, but oracle and parsed actions need not be in it. */
  readonly listsActions?: boolean;
  /** Observations follow user turns (default false: every step answers with one user message and info.segment
   * stays 0). When true: reset gives system messages then the first user turn; a step gives tool results and/or
   * user messages (tool results first, possibly nothing once the episode ends); info.segment counts user turns,
   * rising by at most one per step, and a step that starts a new user turn ends with its user message. */
  readonly multiTurn?: boolean;
  /** What a reply that is not an action is (default "invalid"): "invalid" spends the turn, keeps the state and
   * explains the answer format (formatHint), and listed actions are also read tagged and in other cases;
   * "answer" is a reply the env acts on (BFCL: text without calls ends the user turn), read as a parsed action,
   * and two states played alike keep equal keys step by step. */
  readonly nonActionReplies?: "invalid" | "answer";
  /** Stop reasons a terminated step may carry (default success and failure). */
  readonly stopReasons?: readonly StopReason[];
}

const GARBAGE: readonly string[] = [
  "",
  "   \n\t ",
  "xyzzy",
  "<answer></answer>",
  "<answer>xyzzy</answer>",
  "<ANSWER> nothing here </ANSWER>",
  "<answer><answer>xyzzy</answer></answer>",
  "\u0000\u0001\u0002\u001b[31m",
  "💥".repeat(1000),
  "x".repeat(1_000_000),
  "<answer>".repeat(10_000),
  "</answer>".repeat(10_000) + "<answer>",
];

const PIECES = [
  "<answer>",
  "</answer>",
  "<Answer>",
  "</ANSWER>",
  "<answer",
  "answer>",
  "\u0000",
  "\ud800",
  "\u202e",
  "\r\n",
  " ",
  "->",
  "to",
  "Up",
  "down",
  "LEFT",
  "a",
  "B",
  "c",
  "1",
  "{",
  "}",
  '"',
  "`",
  "**",
  ".",
];

/** Replies for fuzzing: random strings of several kinds, mixed with pieces of plausible answers. */
function replyArbitrary(validTexts: readonly string[]): fc.Arbitrary<string> {
  const pieces = fc.constantFrom(...PIECES, ...validTexts);
  return fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join("")),
    fc
      .tuple(
        fc.array(pieces, { maxLength: 4 }),
        fc.string({ unit: "binary", maxLength: 8 }),
        fc.array(pieces, { maxLength: 4 }),
      )
      .map(([a, b, c]) => a.join("") + b + c.join("")),
    fc.tuple(fc.constantFrom(...PIECES), fc.nat({ max: 3000 })).map(([piece, count]) => piece.repeat(count)),
  );
}

function act(text: string): Message {
  return assistantMessage(text);
}

/** The message for a canonical action: the env's actionMessage when it has one (tool calls), else the text. */
function actionReply(env: AnyEnv, state: unknown, action: string): Message {
  return env.actions.message === undefined ? act(action) : env.actions.message(state, action);
}

interface TranscriptStep {
  readonly observation: readonly Message[];
  readonly reward: number;
  readonly terminated: boolean;
  readonly info: unknown;
}

/** Play `turns` turns: a seeded mix of valid actions and garbage. Returns the transcript and the states. */
function playMixed(
  env: AnyEnv,
  task: unknown,
  seed: number,
  turns: number,
): { transcript: TranscriptStep[]; keys: string[] } {
  const rng = createRng(seed);
  let { state } = env.reset(task, { seed });
  const transcript: TranscriptStep[] = [];
  const keys: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const valid = env.actions.valid(state);
    const message =
      valid.length > 0 && rng.next() < 0.8
        ? actionReply(env, state, rng.pick(valid))
        : act(rng.pick(GARBAGE.slice(0, 8)));
    const result: StepResult<unknown> = env.step(state, message);
    transcript.push({
      observation: result.observation,
      reward: result.reward,
      terminated: result.terminated,
      info: result.info,
    });
    keys.push(result.info.stateKey);
    state = result.state;
    if (result.terminated) break;
  }
  return { transcript, keys };
}

/** A state met along a seeded random walk, kept as (task, reset seed, actions) since steps may mutate states. */
interface Waypoint {
  readonly task: unknown;
  readonly seed: number;
  readonly actions: readonly string[];
}

function waypoints(env: AnyEnv, tasks: readonly unknown[], rng: Rng): Waypoint[] {
  const out: Waypoint[] = [];
  tasks.forEach((task, seed) => {
    let { state } = env.reset(task, { seed });
    const actions: string[] = [];
    for (let turn = 0; turn < 20; turn++) {
      out.push({ task, seed, actions: actions.slice() });
      const valid = env.actions.valid(state);
      if (valid.length === 0) break;
      const action = rng.pick(valid);
      const result = env.step(state, actionReply(env, state, action));
      if (result.terminated) break;
      actions.push(action);
      state = result.state;
    }
  });
  return out;
}

function restore(env: AnyEnv, waypoint: Waypoint): unknown {
  let { state } = env.reset(waypoint.task, { seed: waypoint.seed });
  for (const action of waypoint.actions) state = env.step(state, actionReply(env, state, action)).state;
  return state;
}

export function runEnvContract(
  name: string,
  makeEnv: () => AnyEnv,
  options: EnvContractOptions = { deterministic: true },
): void {
  const seeds = options.seeds ?? Array.from({ length: 12 }, (_, seed) => seed);
  const fuzzRuns = options.fuzzRuns ?? 10_000;
  const maxTurns = options.maxTurns ?? 400;
  const formatHint = options.formatHint ?? "<answer>";
  const listsActions = options.listsActions ?? true;
  const shape: StepShape = {
    multiTurn: options.multiTurn ?? false,
    stopReasons: options.stopReasons ?? ["success", "failure"],
  };
  const invalidKeepsState = (options.nonActionReplies ?? "invalid") === "invalid";

  describe(`${name}: env contract`, () => {
    const env = makeEnv();
    const tasks = seeds.map((seed) => env.tasks.generate(seed));

    it("has a JSON config and a name", () => {
      expect(env.spec.name.length).toBeGreaterThan(0);
      expect(canonicalJson(JSON.parse(JSON.stringify(env.spec.config)))).toBe(canonicalJson(env.spec.config));
    });

    it("generates the same tasks from the same seeds, in a fresh env too", () => {
      const again = makeEnv();
      seeds.forEach((seed, index) => {
        const task = again.tasks.generate(seed);
        expect(canonicalJson(again.tasks.encode(task))).toBe(canonicalJson(env.tasks.encode(tasks[index])));
        expect(again.tasks.id(task)).toBe(env.tasks.id(tasks[index]));
      });
    });

    it("round-trips tasks through JSON text", () => {
      const fresh = makeEnv();
      for (const task of tasks) {
        const decoded = fresh.tasks.decode(JSON.parse(JSON.stringify(env.tasks.encode(task))));
        expect(fresh.tasks.id(decoded)).toBe(env.tasks.id(task));
        expect(canonicalJson(fresh.tasks.encode(decoded))).toBe(canonicalJson(env.tasks.encode(task)));
        expect(fresh.reset(decoded, { seed: 3 }).observation).toEqual(env.reset(task, { seed: 3 }).observation);
      }
    });

    it("never generates more distinct tasks than it says it has (when it says)", () => {
      const distinct = env.tasks.distinctTasks?.();
      if (distinct === undefined) return;
      expect(Number.isInteger(distinct) && distinct >= 1).toBe(true);
      const ids = new Set(Array.from({ length: 500 }, (_, seed) => env.tasks.id(env.tasks.generate(seed))));
      expect(ids.size).toBeLessThanOrEqual(distinct);
    });

    it("says what its structure is, and keys it: a deterministic string, equal for equal tasks", () => {
      expect(env.tasks.structure.trim().length).toBeGreaterThan(0);
      const fresh = makeEnv();
      for (const task of tasks) {
        const key = env.tasks.structureKey(task);
        expect(typeof key === "string" && key.length > 0).toBe(true);
        expect(env.tasks.structureKey(task)).toBe(key);
        expect(fresh.tasks.structureKey(fresh.tasks.decode(JSON.parse(JSON.stringify(env.tasks.encode(task)))))).toBe(
          key,
        );
      }
    });

    it("never counts more distinct structures than tasks, nor generates more than it counts (when it says)", () => {
      const structures = env.tasks.distinctStructures?.();
      if (structures === undefined) return;
      expect(Number.isInteger(structures) && structures >= 1).toBe(true);
      const tasksCount = env.tasks.distinctTasks?.() ?? env.tasks.list?.().length;
      if (tasksCount !== undefined) expect(structures).toBeLessThanOrEqual(tasksCount);
      const keys = new Set(Array.from({ length: 500 }, (_, seed) => env.tasks.structureKey(env.tasks.generate(seed))));
      expect(keys.size).toBeLessThanOrEqual(structures);
    });

    it("gives every task a positive integer reference budget", () => {
      for (const task of tasks) {
        const reference = env.tasks.referenceBudget(task, "episode");
        expect(Number.isInteger(reference) && reference >= 1).toBe(true);
      }
    });

    it(
      shape.multiTurn
        ? "resets deterministically to the first user turn with a clean info"
        : "resets deterministically to [system, user] with a clean info",
      () => {
        for (const [index, task] of tasks.entries()) {
          const first = env.reset(task, { seed: index });
          const second = makeEnv().reset(task, { seed: index });
          expect(second.observation).toEqual(first.observation);
          expect(second.info).toEqual(first.info);
          expectResetMessages(first.observation, shape.multiTurn);
          expect(first.info).toMatchObject({ invalid: false, parsedAction: null, segment: 0 });
          expect(first.info.stopReason).toBeUndefined();
          expect(Number.isFinite(first.info.progress)).toBe(true);
          expect(first.info.stateKey).toBe(env.actions.stateKey(first.state));
          if (listsActions) expect(env.actions.valid(first.state).length).toBeGreaterThan(0);
        }
      },
    );

    it("steps deterministically for equal seeds and replies, with well-formed results", () => {
      for (const [index, task] of tasks.entries()) {
        const a = playMixed(env, task, 100 + index, 60);
        const b = playMixed(makeEnv(), makeEnv().tasks.decode(env.tasks.encode(task)), 100 + index, 60);
        expect(canonicalJson(b.transcript)).toBe(canonicalJson(a.transcript));
      }
      const rng = createRng(5);
      for (const task of tasks) {
        let { state, info } = env.reset(task, { seed: 9 });
        for (let turn = 0; turn < 60; turn++) {
          const valid = env.actions.valid(state);
          const result = env.step(
            state,
            rng.next() < 0.8 && valid.length > 0 ? actionReply(env, state, rng.pick(valid)) : act("nonsense"),
          );
          expectWellFormedStep(env, result, shape, info.segment);
          state = result.state;
          info = result.info;
          if (result.terminated) break;
        }
      }
    });

    it(
      invalidKeepsState
        ? "keeps the state key through invalid replies, and equal play gives equal keys"
        : "gives equal keys to two states of one env played alike, step by step",
      () => {
        for (const [index, task] of tasks.entries()) {
          const rng = createRng(200 + index);
          let clean = env.reset(task, { seed: index }).state;
          let noisy = env.reset(task, { seed: index }).state;
          for (let turn = 0; turn < 30; turn++) {
            const valid = env.actions.valid(clean);
            if (valid.length === 0) break;
            if (invalidKeepsState) {
              const before = env.actions.stateKey(noisy);
              const wasted = env.step(noisy, act("<answer>definitely not an action</answer>"));
              expect(wasted.info.invalid).toBe(true);
              expect(wasted.info.stateKey).toBe(before);
              noisy = wasted.state;
            }
            const action = rng.pick(valid);
            const cleanStep = env.step(clean, actionReply(env, clean, action));
            const noisyStep = env.step(noisy, actionReply(env, noisy, action));
            expect(noisyStep.info.stateKey).toBe(cleanStep.info.stateKey);
            clean = cleanStep.state;
            noisy = noisyStep.state;
            if (cleanStep.terminated) break;
          }
        }
      },
    );

    it(
      invalidKeepsState
        ? "parses every valid action in its canonical form, tagged, and in other cases"
        : "reads every listed action as an action",
      () => {
        for (const [index, task] of tasks.entries()) {
          const start = () => env.reset(task, { seed: index }).state;
          for (const action of env.actions.valid(start())) {
            if (!invalidKeepsState) {
              const state = start();
              const result = env.step(state, actionReply(env, state, action));
              expect(result.info.invalid).toBe(false);
              expect(result.info.parsedAction).not.toBeNull();
              continue;
            }
            for (const reply of [
              action,
              `<answer>${action}</answer>`,
              ` ${action.toLowerCase()} `,
              `Thinking... <answer>xyzzy</answer> no: <ANSWER>${action.toUpperCase()}</ANSWER>`,
            ]) {
              const result = env.step(start(), act(reply));
              expect(result.info.parsedAction).toBe(action);
              expect(result.info.invalid).toBe(false);
            }
          }
        }
      },
    );

    it(
      invalidKeepsState
        ? "spends the turn on garbage and explains the answer format"
        : "reads text that is not an action as an answer, well formed",
      () => {
        const [task] = tasks;
        for (const reply of GARBAGE) {
          const { state, info } = env.reset(task, { seed: 1 });
          const key = env.actions.stateKey(state);
          const valid = env.actions.valid(state);
          const result = env.step(state, act(reply));
          expectWellFormedStep(env, result, shape, info.segment);
          if (!invalidKeepsState) {
            expect(result.info.invalid).toBe(false);
            expect(result.info.parsedAction).not.toBeNull();
            continue;
          }
          expect(result.info.invalid).toBe(true);
          expect(result.info.parsedAction).toBeNull();
          expect(result.terminated).toBe(false);
          expect(result.info.stateKey).toBe(key);
          const text = result.observation[0]!.content;
          expect(text).toContain(formatHint);
          for (const action of valid.slice(0, 8)) expect(text).toContain(action);
        }
      },
    );

    it(`never throws on ${fuzzRuns.toLocaleString("en-US")} fuzzed replies (unicode, control characters, tags, repetitions)`, () => {
      const pool = waypoints(env, tasks, createRng(17));
      const validTexts = [...new Set(pool.flatMap((waypoint) => env.actions.valid(restore(env, waypoint))))];
      const check = (index: number, reply: string, asAction: boolean): void => {
        const state = restore(env, pool[index]!);
        const message = asAction ? actionReply(env, state, reply) : act(reply);
        // parseAction reads a reply as the step would, without playing it (teacher-forced rollouts judge with it).
        const parsed = env.actions.parse?.(state, message);
        const result = env.step(state, message);
        const { parsedAction } = result.info;
        const problems = stepProblems(env, result, shape);
        if (parsed !== undefined && parsed !== parsedAction)
          problems.push(`parseAction read ${JSON.stringify(parsed)}, the step ${JSON.stringify(parsedAction)}`);
        if (listsActions && parsedAction !== null && !result.info.invalid && !validTexts.includes(parsedAction))
          problems.push(`parsed ${JSON.stringify(parsedAction)}, which is no valid action`);
        expectNoProblems(problems);
      };
      const indexes = fc.nat({ max: pool.length - 1 });
      const settings = { numRuns: fuzzRuns, seed: 20240601 };
      // Envs with an actionMessage also get the fuzzed texts as canonical actions (tool calls when they parse).
      if (env.actions.message === undefined)
        fc.assert(
          fc.property(indexes, replyArbitrary(validTexts), (index, reply) => check(index, reply, false)),
          settings,
        );
      else fc.assert(fc.property(indexes, replyArbitrary(validTexts), fc.boolean(), check), settings);
    });

    it("has an oracle whose optimal actions are valid and lead to success", () => {
      for (const [index, task] of tasks.entries()) {
        const rng = createRng(300 + index);
        let { state, info } = env.reset(task, { seed: index });
        let segment = info.segment;
        let answer = env.oracle!.answer(state);
        const startRemaining = answer.remaining;
        if (!(startRemaining <= maxTurns)) continue;
        let turns = 0;
        for (; turns < maxTurns * 4; turns++) {
          expect(answer.optimal.length).toBeGreaterThan(0);
          const valid = env.actions.valid(state);
          if (listsActions) for (const action of answer.optimal) expect(valid).toContain(action);
          expect(answer.value ?? 1).toBeGreaterThan(0);
          expect(answer.value ?? 1).toBeLessThanOrEqual(1);
          const action = rng.pick(answer.optimal);
          const result = env.step(state, actionReply(env, state, action));
          expect(result.info.invalid).toBe(false);
          // A canonical action sent as the env's actionMessage reads back as itself.
          if (env.actions.message !== undefined) expect(result.info.parsedAction).toBe(action);
          // The oracle's path is the one that crosses user turns: check its steps' shape there too.
          if (shape.multiTurn) expectWellFormedStep(env, result, shape, segment);
          segment = result.info.segment;
          state = result.state;
          const next = env.oracle!.answer(state);
          if (options.deterministic) expect(next.remaining).toBe(answer.remaining - 1);
          answer = next;
          if (result.terminated) {
            if (result.info.stopReason === "success") {
              expect(answer.remaining).toBe(0);
              expect(answer.optimal).toEqual([]);
            }
            break;
          }
          expect(answer.remaining).toBeGreaterThan(0);
        }
        if (options.deterministic) expect(turns + 1).toBe(startRemaining);
      }
    });

    it("answers within any number of turns left: the value grows with them, deterministic envs keep their moves", () => {
      const rng = createRng(400);
      // Plain checks gathered as sentences (about 10,000 answers an env), then one expectNoProblems a state.
      for (const waypoint of waypoints(env, tasks, rng)) {
        const state = restore(env, waypoint);
        const unlimited = env.oracle!.answer(state);
        const valid = env.actions.valid(state);
        const horizons = [...Array.from({ length: Math.min(unlimited.remaining, 60) + 3 }, (_, t) => t), 1000];
        const path = JSON.stringify(waypoint.actions);
        const problems: string[] = [];
        let previous = 0;
        for (const turnsLeft of horizons) {
          const answer = env.oracle!.answer(state, turnsLeft);
          const at = `${path} with ${turnsLeft} turns left`;
          if (answer.remaining !== unlimited.remaining)
            problems.push(`${at}: remaining ${answer.remaining}, unlimited ${unlimited.remaining}`);
          if (listsActions && !answer.optimal.every((action) => valid.includes(action)))
            problems.push(`${at}: optimal ${JSON.stringify(answer.optimal)} not all valid`);
          const value = answer.value ?? 0;
          if (!(value >= previous)) problems.push(`${at}: value ${value} below ${previous} with fewer turns`);
          if (!(value <= (unlimited.value ?? 1) + 1e-9)) problems.push(`${at}: value ${value} above the unlimited one`);
          previous = value;
          if (!options.deterministic) continue;
          // A shortest path is the fastest way to success within any budget, and the only one within a tight one.
          if (JSON.stringify(answer.optimal) !== JSON.stringify(unlimited.optimal))
            problems.push(
              `${at}: optimal ${JSON.stringify(answer.optimal)}, unlimited ${JSON.stringify(unlimited.optimal)}`,
            );
          if (answer.value !== (unlimited.remaining <= turnsLeft ? 1 : 0))
            problems.push(`${at}: value ${answer.value} with ${unlimited.remaining} turns to go`);
        }
        expectNoProblems(problems);
      }
    });

    it("refuses task files it cannot read with a DataError", () => {
      expect(() => env.tasks.parse("%%% this is not a task file %%%")).toThrow(DataError);
      expect(() => env.tasks.parse("")).toThrow(DataError);
      expect(() => env.tasks.decode({ nonsense: true })).toThrow(DataError);
    });
  });
}
