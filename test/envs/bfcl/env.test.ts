// The BFCL env adapter on fake backends: config, tasks, budgets, the oracle played through actionMessage in
// both modes, info fields and state keys; and the shared env contract, extended for multi-message user turns.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/core/json.js";
import { ConfigError, DataError } from "../../../src/core/errors.js";
import type { Message } from "../../../src/core/message.js";
import { bfcl, type BfclEnv, type BfclTask } from "../../../src/envs/bfcl/env.js";
import { BUNDLED_BFCL_DATA_DIR } from "../../../src/envs/bfcl/load/bundled-data.js";
import type { BfclState } from "../../../src/envs/bfcl/play/inference-loop.js";
import { CLOSING_TEXT } from "../../../src/envs/bfcl/play/prompts.js";
import { runEnvContract, type EnvContractOptions } from "../contract.js";
import { FAKE_CLASSES, writeFakeDataDir } from "./fixtures.js";

function makeEnv(options: Record<string, unknown> = {}): BfclEnv {
  return bfcl({ dataDir: writeFakeDataDir(), ...options }, FAKE_CLASSES);
}

/** Play the oracle's first optimal action until the end; returns the steps. */
function playOracle(env: BfclEnv, id: string) {
  const task = env.tasks.decode(id);
  const start = env.reset(task, { seed: 0 });
  let state: BfclState = start.state;
  const steps = [];
  for (let guard = 0; guard < 50; guard++) {
    const action = env.oracle!.answer(state).optimal[0] as string;
    const result = env.step(state, env.actions.message(state, action));
    steps.push({ action, result });
    state = result.state;
    if (result.terminated) break;
  }
  return { start, steps };
}

describe("bfcl config", () => {
  it("validates options before loading, naming the field", () => {
    expect(() => bfcl({ dataDir: "  " }, FAKE_CLASSES)).toThrow(ConfigError);
    expect(() => bfcl({ dataDir: "  " }, FAKE_CLASSES)).toThrow(/bfcl\.dataDir: expected a path, found only spaces/);
    expect(() => makeEnv({ mode: "chat" })).toThrow(/bfcl\.mode: expected tools or prompting/);
    expect(() => makeEnv({ categories: "base,web" })).toThrow(/bfcl\.categories\.1: expected a comma-separated list/);
    expect(() => makeEnv({ maxStepsPerTurn: "0" })).toThrow(
      /bfcl\.maxStepsPerTurn: expected an integer from 1 to 1000/,
    );
    expect(() => makeEnv({ budget: 3 })).toThrow(/bfcl\.budget: unknown option/);
    expect(makeEnv({ categories: "miss_param,base", stopOnFailure: "false" }).spec.config).toMatchObject({
      categories: ["miss_param", "base"],
      stopOnFailure: false,
      mode: "tools",
      callable: "unexcluded",
      maxStepsPerTurn: 20,
    });
  });

  it("refuses entries whose backend classes are missing, naming them", () => {
    expect(() => bfcl({ dataDir: writeFakeDataDir() }, [FAKE_CLASSES[0]!])).toThrow(DataError);
    expect(() => bfcl({ dataDir: writeFakeDataDir() }, [FAKE_CLASSES[0]!])).toThrow(
      /bfcl entry multi_turn_base_0: backend class Notes is not available/,
    );
    expect(() => bfcl({ dataDir: writeFakeDataDir() }, [])).toThrow(/no BFCL backend classes are registered/);
  });
});

describe("bfcl tasks", () => {
  const env = makeEnv();

  it("lists every entry in order and picks one per seed, reproducibly", () => {
    expect(env.tasks.list().map((task) => env.tasks.id(task))).toEqual([
      "multi_turn_base_0",
      "multi_turn_base_1",
      "multi_turn_miss_func_0",
      "multi_turn_miss_param_0",
      "multi_turn_long_context_0",
    ]);
    expect(env.tasks.generate(7)).toBe(env.tasks.generate(7));
    const seen = new Set(Array.from({ length: 60 }, (_, seed) => env.tasks.generate(seed).id));
    expect(seen.size).toBe(5);
  });

  it("encodes tasks by id and reads task files, naming bad lines", () => {
    const task = env.tasks.list()[2]!;
    expect(env.tasks.encode(task)).toBe("multi_turn_miss_func_0");
    expect(env.tasks.decode(env.tasks.encode(task))).toBe(task);
    expect(() => env.tasks.decode("multi_turn_base_99")).toThrow(/unknown entry id "multi_turn_base_99"/);
    expect(
      env.tasks.parse("# my tasks\nmulti_turn_base_1\n\n  multi_turn_base_0  # first\n").map((item) => item.id),
    ).toEqual(["multi_turn_base_1", "multi_turn_base_0"]);
    expect(() => env.tasks.parse("multi_turn_base_1\nbogus\n")).toThrow(/line 2: unknown entry id "bogus"/);
    expect(() => env.tasks.parse("# nothing but a comment\n\n")).toThrow(DataError);
    expect(() => env.tasks.parse("")).toThrow(/bfcl task file: no entry ids found/);
  });

  it("keys an entry's structure by its number, shared by the categories' variants of one entry", () => {
    expect(env.tasks.list().map((task) => env.tasks.structureKey(task))).toEqual(["0", "1", "0", "0", "0"]);
    expect(env.tasks.distinctStructures?.()).toBe(2);
    expect(makeEnv({ categories: "miss_func" }).tasks.distinctStructures?.()).toBe(1);
  });

  it("gives 20 steps per user turn as the reference budget", () => {
    const task = env.tasks.decode("multi_turn_base_0");
    expect(env.tasks.referenceBudget(task, "user-turn")).toBe(20);
    expect(env.tasks.referenceBudget(task, "episode")).toBe(60);
  });
});

describe("bfcl episodes", () => {
  it("plays the oracle to success in tools mode, with segments, progress and a final reward", () => {
    const env = makeEnv();
    const { start, steps } = playOracle(env, "multi_turn_base_0");
    expect(start.info).toMatchObject({ segment: 0, progress: 0, invalid: false, parsedAction: null });
    expect(start.tools?.map((tool) => tool.name)).toEqual(["add", "get", "write", "read"]);
    expect(steps.map((step) => step.action)).toEqual([
      "[add(amount=2)]",
      "[]",
      "[write(title='a', text='hello')]",
      "[]",
      "[read(title='a')]",
      "[]",
    ]);
    expect(steps.map((step) => step.result.info.segment)).toEqual([0, 1, 1, 2, 2, 2]);
    expect(steps.map((step) => step.result.info.progress)).toEqual([0, 1, 1, 2, 2, 3]);
    expect(steps.map((step) => step.result.reward)).toEqual([0, 0, 0, 0, 0, 1]);
    expect(steps.map((step) => step.result.info.parsedAction)).toEqual(steps.map((step) => step.action));
    const last = steps[5]!.result;
    expect(last.terminated).toBe(true);
    expect(last.info.stopReason).toBe("success");
    expect(last.info.details).toMatchObject({ turn: 2, verdict: { valid: true }, turnsPassed: 3, turns: 3 });
  });

  it("plays every fake entry to success through actionMessage in both modes", () => {
    for (const mode of ["tools", "prompting"]) {
      const env = makeEnv({ mode });
      for (const task of env.tasks.list()) {
        const { steps } = playOracle(env, task.id);
        expect(steps.at(-1)?.result.info.stopReason, `${mode} ${task.id}`).toBe("success");
      }
    }
  });

  it("turns canonical actions into tool calls or text", () => {
    const tools = makeEnv();
    const { state } = tools.reset(tools.tasks.decode("multi_turn_base_0"), { seed: 0 });
    expect(tools.actions.message(state, "[write('a', text='hi'), get()]")).toEqual({
      role: "assistant",
      content: "",
      toolCalls: [
        { id: "call_0_0_0", name: "write", arguments: '{"title": "a", "text": "hi"}' },
        { id: "call_0_0_1", name: "get", arguments: "{}" },
      ],
    });
    expect(tools.actions.message(state, "[]")).toEqual({ role: "assistant", content: CLOSING_TEXT });
    expect(tools.actions.message(state, "All done.")).toEqual({ role: "assistant", content: "All done." });
    const prompting = makeEnv({ mode: "prompting" });
    const other = prompting.reset(prompting.tasks.decode("multi_turn_base_0"), { seed: 0 }).state;
    expect(prompting.actions.message(other, "[write(text='hi', title='a')]")).toEqual({
      role: "assistant",
      content: "[write(title='a', text='hi')]",
    });
  });

  it("follows the model's progress within a turn in the oracle", () => {
    const env = makeEnv();
    const { state } = env.reset(env.tasks.decode("multi_turn_base_1"), { seed: 0 });
    expect(env.oracle!.answer(state)).toEqual({ optimal: ["[add(amount=5), add(amount=5)]"], remaining: 4, value: 1 });
    const step = env.step(state, env.actions.message(state, "[add(5)]"));
    expect(env.oracle!.answer(step.state)).toEqual({ optimal: ["[add(amount=5)]"], remaining: 4, value: 1 });
    env.step(step.state, env.actions.message(step.state, "[add(amount=5)]"));
    expect(env.oracle!.answer(step.state)).toEqual({ optimal: ["[]"], remaining: 3, value: 1 });
    expect(env.actions.valid(step.state)).toEqual(["add()", "get()", "write()", "read()", "delete()", "[]"]);
  });

  it("stops with failure on a wrong turn and reports the verdict", () => {
    const env = makeEnv();
    const { state } = env.reset(env.tasks.decode("multi_turn_base_0"), { seed: 0 });
    env.step(state, env.actions.message(state, "[add(amount=3)]"));
    const end = env.step(state, { role: "assistant", content: "ok" });
    expect(end.terminated).toBe(true);
    expect(end.reward).toBe(0);
    expect(end.info.stopReason).toBe("failure");
    expect(end.info.details).toMatchObject({
      turn: 0,
      verdict: { valid: false, errorType: "multi_turn:instance_state_mismatch" },
      turnsPassed: 0,
    });
    expect(env.oracle!.answer(state)).toEqual({ optimal: [], remaining: Infinity, value: 0 });
    expect(env.actions.valid(state)).toEqual([]);
  });

  it("marks malformed responses invalid with no parsed action", () => {
    const env = makeEnv({ mode: "prompting" });
    const { state } = env.reset(env.tasks.decode("multi_turn_base_0"), { seed: 0 });
    const step = env.step(state, { role: "assistant", content: "[add(amount=2" } satisfies Message);
    expect(step.info).toMatchObject({ invalid: true, parsedAction: null });
  });

  it("keys states by turn and model-side state", () => {
    const env = makeEnv();
    const task = env.tasks.decode("multi_turn_base_1");
    const a = env.reset(task, { seed: 0 }).state;
    const b = env.reset(task, { seed: 1 }).state;
    expect(env.actions.stateKey(a)).toBe(env.actions.stateKey(b));
    const afterA = env.step(a, env.actions.message(a, "[add(amount=5), add(amount=5)]"));
    expect(afterA.info.stateKey).not.toBe(env.actions.stateKey(b));
    env.step(b, env.actions.message(b, "[add(5)]"));
    env.step(b, env.actions.message(b, "[add(5)]"));
    expect(env.actions.stateKey(b)).toBe(env.actions.stateKey(a));
    const turnEnded = env.step(a, env.actions.message(a, "[]"));
    expect(turnEnded.info.stateKey).not.toBe(env.actions.stateKey(b));
  });
});

describe("bfcl robustness", () => {
  it("never throws on fuzzed replies, in text or as tool calls, and keeps observations well formed", () => {
    const envs = [makeEnv(), makeEnv({ mode: "prompting" })];
    const pieces = fc.constantFrom(
      "[",
      "]",
      "(",
      ")",
      "add",
      "read",
      "write",
      "get",
      "=",
      "'",
      '"',
      ",",
      "{",
      "}",
      "amount",
      "title",
      "1",
      "2.5",
      "None",
      "True",
      "`",
      "\n",
      " ",
      "\u0000",
      "\ud800",
      "💥",
    );
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.array(pieces, { maxLength: 20 }).map((parts) => parts.join("")),
    );
    const toolCall = fc.record({
      id: fc.string({ maxLength: 5 }),
      name: fc.oneof(
        fc.constantFrom("add", "get", "read", "write", "delete", "exit", "os.system"),
        fc.string({ maxLength: 12 }),
      ),
      arguments: fc.oneof(text, fc.json({ maxDepth: 3 })),
    });
    fc.assert(
      fc.property(fc.nat({ max: 9 }), text, fc.array(toolCall, { maxLength: 4 }), (pick, content, calls) => {
        const env = envs[pick % 2] as BfclEnv;
        const task = env.tasks.list()[pick % env.tasks.list().length] as BfclTask;
        let { state } = env.reset(task, { seed: 0 });
        for (const action of [
          { role: "assistant", content, toolCalls: calls },
          { role: "assistant", content },
        ] as Message[]) {
          const result = env.step(state, action);
          state = result.state;
          expect(result.observation.every((message) => typeof message.content === "string")).toBe(true);
          expect(result.info.stateKey).toBe(env.actions.stateKey(state));
          if (result.terminated) break;
        }
      }),
      { numRuns: 10_000, seed: 42 },
    );
  });

  it("plays identically for identical replies (deterministic transcripts)", () => {
    const transcript = (env: BfclEnv) => {
      const out: unknown[] = [];
      for (const task of env.tasks.list()) {
        let { state, observation } = env.reset(task, { seed: 3 });
        out.push(observation);
        for (const content of [
          "[add(amount=1)]",
          "[get(), read(title='todo')]",
          "fine",
          "[write(title='x', text='y')]",
          "ok",
          "[]",
          "done",
        ]) {
          const result = env.step(state, env.actions.message(state, content));
          out.push(result.observation, result.info, result.reward, result.tools ?? null);
          state = result.state;
          if (result.terminated) break;
        }
      }
      return canonicalJson(out);
    };
    for (const mode of ["tools", "prompting"])
      expect(transcript(makeEnv({ mode }))).toBe(transcript(makeEnv({ mode })));
  });
});

/** BFCL under the shared contract: user turns over several steps, any text is an answer (it ends the user turn),
 * listed actions are only what a random walk picks from, and a user turn can be force-quit. Few fuzz runs: the
 * robustness test above fuzzes the loop itself. */
export const BFCL_CONTRACT: EnvContractOptions = {
  deterministic: true,
  multiTurn: true,
  nonActionReplies: "answer",
  listsActions: false,
  stopReasons: ["success", "failure", "force_terminated"],
  fuzzRuns: 300,
};

const fakeDataDir = writeFakeDataDir();
runEnvContract("bfcl on fake backends, tools mode", () => bfcl({ dataDir: fakeDataDir }, FAKE_CLASSES), BFCL_CONTRACT);
// Random walks fail the first turn's check; without stopOnFailure they go on through the later user turns.
runEnvContract(
  "bfcl on fake backends, prompting mode, playing on after failures",
  () => bfcl({ dataDir: fakeDataDir, mode: "prompting", stopOnFailure: false }, FAKE_CLASSES),
  BFCL_CONTRACT,
);

describe("bfcl on the bundled data", () => {
  it("reads the copy that ships with budgetrl unless --data-dir says otherwise", () => {
    const env = bfcl();
    expect(env.spec.config).toMatchObject({ dataDir: "" });
    expect(env.dataset.dataDir).toBe(BUNDLED_BFCL_DATA_DIR);
    expect(env.tasks.list()).toHaveLength(800);
    expect(bfcl({ dataDir: fakeDataDir }, FAKE_CLASSES).dataset.dataDir).toBe(fakeDataDir);
  });

  it("numbers the same 200 questions in every category: one structure per number, the variants of one base entry", () => {
    const env = bfcl();
    expect(env.tasks.distinctStructures?.()).toBe(200);
    const byNumber = new Map<string, BfclTask[]>();
    for (const task of env.tasks.list())
      byNumber.set(env.tasks.structureKey(task), [...(byNumber.get(env.tasks.structureKey(task)) ?? []), task]);
    expect([...byNumber.values()].every((variants) => variants.length === 4)).toBe(true);
    // The variants share the path and classes, and all but at most one changed user turn (miss_func inserts an
    // empty turn where functions arrive; miss_param drops a parameter from one turn, sometimes from two).
    const text = (turn: unknown): string => JSON.stringify(turn);
    let nearlyAll = 0;
    for (const [number, [base, ...others]] of byNumber) {
      expect(base!.id).toBe(`multi_turn_base_${number}`);
      for (const other of others) {
        expect(other.involvedClasses).toEqual(base!.involvedClasses);
        const turns = other.question.filter((turn) => turn.length > 0).map(text);
        const shared = base!.question.map(text).filter((turn) => turns.includes(turn)).length;
        if (shared >= base!.question.length - 1) nearlyAll++;
      }
    }
    expect(nearlyAll).toBeGreaterThanOrEqual(586);
  });
});

// Seeds 0, 1, 3, 6 pick one entry of each category: base_36, miss_param_90, long_context_170, miss_func_103.
runEnvContract("bfcl on the bundled data, tools mode", () => bfcl(), { ...BFCL_CONTRACT, seeds: [0, 1, 3, 6] });
