import { describe, expect, it } from "vitest";
import { BudgetrlError } from "../../../src/core/errors.js";
import { assistantMessage } from "../../../src/core/message.js";
import { DIRECTIONS } from "../../../src/envs/shared/directions.js";
import { thinice, type ThinIceState } from "../../../src/envs/thinice/index.js";
import { mapFromRows } from "../../../src/envs/thinice/maps.js";
import { thinIceConfigSchema } from "../../../src/envs/thinice/config.js";
import { allLayouts, cellRoles, DECORATION, layoutRows } from "../../../src/envs/thinice/generator.js";
import { parseOptions } from "../../../src/core/options.js";
import { createRng } from "../../../src/core/rng.js";
import { playReplies } from "../../helpers/play-replies.js";
import { runEnvContract } from "../contract.js";

runEnvContract("thinice", () => thinice(), { deterministic: false, formatHint: "Up/Down/Left/Right" });
runEnvContract("thinice small, no rocks, q = 0.9", () => thinice({ width: 5, height: 3, rocks: 0, q: 0.9 }), {
  deterministic: false,
  formatHint: "Up/Down/Left/Right",
  fuzzRuns: 2000,
});

describe("thinice env", () => {
  const env = thinice();
  // Short route: Right x4 over one thin cell; safe route: Down, Down, Right x4, Up, Up (8 turns).
  const task = mapFromRows(["S.~.G", "..#..", "....."], "test");
  const play = (actions: readonly string[], seed = 0) => playReplies(env, env.reset(task, { seed }).state, actions);
  /** A reset seed whose first step onto thin ice holds (or breaks). */
  const seedWhere = (holds: boolean): number => {
    for (let seed = 0; ; seed++)
      if ((play(["Right", "Right"], seed)[1]!.info.stopReason === undefined) === holds) return seed;
  };

  it("walks the safe route to the goal with reward 1", () => {
    const steps = play(["Down", "Down", "Right", "Right", "Right", "Right", "Up", "Up"]);
    expect(steps.map((step) => step.reward)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(steps[7]).toMatchObject({ terminated: true, info: { stopReason: "success", progress: 1 } });
    expect(steps[7]!.observation[0]!.content).toBe("Moved Up: goal!\nS.~.P\n..#..\n.....");
    expect(env.actions.valid(steps[7]!.state)).toEqual([]);
  });

  it("crosses thin ice that holds, or falls in when it breaks", () => {
    const held = play(["Right", "Right", "Right", "Right"], seedWhere(true));
    expect(held[1]!.observation[0]!.content).toBe("Moved Right: ice held.\nS.P.G\n..#..\n.....");
    expect(held[3]).toMatchObject({ reward: 1, terminated: true, info: { stopReason: "success" } });
    const broke = play(["Right", "Right", "Right"], seedWhere(false));
    expect(broke[1]).toMatchObject({ reward: 0, terminated: true, info: { stopReason: "failure", progress: 0 } });
    expect(broke[1]!.observation[0]!.content).toBe("Moved Right: ice broke!\nS.P.G\n..#..\n.....");
    expect(env.oracle!.answer(broke[1]!.state, 5)).toEqual({ optimal: [], remaining: Infinity, value: 0 });
    expect(broke[2]!.observation[0]!.content).toBe("The episode is over.\nS.P.G\n..#..\n.....");
  });

  it("breaks thin ice as often as q says, drawn from the reset seed, the same way for the same seed", () => {
    const episodes = 4000;
    let broke = 0;
    for (let seed = 0; seed < episodes; seed++)
      if (play(["Right", "Right"], seed)[1]!.info.stopReason === "failure") broke += 1;
    // Standard error sqrt(0.4 * 0.6 / 4000) = 0.0077: allow 4 of them.
    expect(Math.abs(broke / episodes - 0.4)).toBeLessThan(0.031);
    for (const seed of [1, 2, 3])
      expect(play(["Right", "Right"], seed)[1]!.info).toEqual(play(["Right", "Right"], seed)[1]!.info);
  });

  it("wastes the turn on rocks and edges without risking the ice it stands on", () => {
    const seed = seedWhere(true);
    const steps = play(["Up", "Right", "Right", "Down", "Up", "Down"], seed);
    expect(steps[0]!.observation[0]!.content).toBe("Up: blocked.\nP.~.G\n..#..\n.....");
    // On the thin cell: a bump into the rock below and the edge above leave the player there, unharmed.
    expect(steps.slice(3).map((step) => step.observation[0]!.content.split("\n")[0])).toEqual([
      "Down: blocked.",
      "Up: blocked.",
      "Down: blocked.",
    ]);
    expect(steps.slice(3).every((step) => !step.terminated && (step.state as ThinIceState).cell === 2)).toBe(true);
  });

  it("keeps the ice random stream out of the state key", () => {
    const a = env.reset(task, { seed: 1 });
    const b = env.reset(task, { seed: 2 });
    expect(a.state.rng).not.toEqual(b.state.rng);
    expect(a.info.stateKey).toBe(b.info.stateKey);
  });

  it("costs the turn without moving on unreadable replies", () => {
    const [step] = play(["jump!"]);
    expect(step).toMatchObject({ reward: 0, terminated: false, info: { invalid: true, parsedAction: null } });
    expect(step!.observation[0]!.content).toBe("Say Up/Down/Left/Right.\nP.~.G\n..#..\n.....");
  });

  it("has an optimal length of the short route and a reference budget of 3x it", () => {
    expect(env.tasks.optimalTurns!(task, "episode")).toBe(4);
    expect(env.tasks.referenceBudget(task, "episode")).toBe(12);
    expect(thinice({ referenceFactor: 5 }).tasks.referenceBudget(task, "episode")).toBe(20);
    expect(env.tasks.optimalTurns!(mapFromRows(["S#G"], "test"), "episode")).toBe(3);
  });

  it("answers the budget decision: cross within 4-7 turns, go round within 8 or more", () => {
    const start = env.reset(task, { seed: 0 }).state;
    expect(env.oracle!.answer(start, 4)).toEqual({ optimal: ["Right"], remaining: 4, value: expect.closeTo(0.6, 15) });
    expect(env.oracle!.answer(start, 8)).toEqual({ optimal: ["Down", "Right"], remaining: 4, value: 1 });
    const bank = env.step(start, assistantMessage("Right")).state;
    expect(env.oracle!.answer(bank, 6).optimal).toEqual(["Right"]);
    expect(env.oracle!.answer(bank, 7).optimal).toEqual(["Down"]);
    expect(env.oracle!.answer(bank)).toEqual({ optimal: ["Down"], remaining: 3, value: 1 });
    for (const t of [0, 3, 6, 7, 100])
      expect(env.oracle!.progressWithin!(bank, t)).toBe(env.oracle!.answer(bank, t).value);
    expect(env.reset(task, { seed: 0 }).info.progress).toBe(1);
    expect(() => env.oracle!.answer(start, -1)).toThrow(BudgetrlError);
    expect(() => env.oracle!.answer(start, 2.5)).toThrow(BudgetrlError);
  });

  it("keeps every observation of default tasks within 83 bytes", () => {
    let longest = 0;
    for (let seed = 0; seed < 200; seed++) {
      const generated = env.tasks.generate(seed);
      const { state, observation } = env.reset(generated, { seed });
      longest = Math.max(longest, Buffer.byteLength(observation[1]!.content));
      for (const reply of [...DIRECTIONS, "??"]) {
        const fresh = env.reset(generated, { seed }).state;
        longest = Math.max(
          longest,
          Buffer.byteLength(env.step(fresh, assistantMessage(reply)).observation[0]!.content),
        );
      }
      expect(state.cell).toBe(state.compiled.ice.start);
    }
    expect(longest).toBeLessThanOrEqual(83);
  });
});

describe("thinice structure", () => {
  const env = thinice();
  const config = parseOptions("thinice", thinIceConfigSchema, {});

  /** A map of `layout` with rocks on the decoration cells a seeded stream picks. */
  const mapOf = (layout: (typeof layouts)[number], seed: number) => {
    const rng = createRng(seed);
    const rocks = cellRoles(layout, config).map((role) => (role === DECORATION && rng.next() < 0.5 ? 1 : 0));
    return mapFromRows(layoutRows(layout, rocks, config), "test");
  };
  const layouts = allLayouts(config);

  it("keys the playable layout: one key per layout (606 by default), shared by maps of one layout", () => {
    expect(layouts).toHaveLength(606);
    expect(env.tasks.distinctStructures?.()).toBe(606);
    const keys = layouts.map((layout) => env.tasks.structureKey(mapOf(layout, 1)));
    expect(new Set(keys).size).toBe(606);
    for (const [index, layout] of layouts.entries()) {
      const other = mapOf(layout, 2);
      expect(env.tasks.structureKey(other)).toBe(keys[index]);
      // The decoration differs (different maps), the playable layout does not.
      if (cellRoles(layout, config).includes(DECORATION))
        expect(env.tasks.id(other)).not.toBe(env.tasks.id(mapOf(layout, 1)));
    }
    // A mirrored config has 4 times the layouts, every one its own structure.
    expect(thinice({ mirror: true }).tasks.distinctStructures?.()).toBe(4 * 606);
  });

  it("gives generated maps the key of their layout, and reads task-file maps the same way", () => {
    const keys = new Set(layouts.map((layout) => env.tasks.structureKey(mapOf(layout, 3))));
    for (let seed = 0; seed < 300; seed++)
      expect(keys.has(env.tasks.structureKey(env.tasks.generate(seed)))).toBe(true);
    // A task-file map: the ice cut off from S (right of the rock, and behind the goal) is not part of the problem.
    const walled = mapFromRows(["S.~.G..", "..#.#..", "....#.~"], "test");
    const bare = mapFromRows(["S.~.G##", "..#.###", "....###"], "test");
    expect(env.tasks.structureKey(walled)).toBe(env.tasks.structureKey(bare));
    expect(env.tasks.structureKey(bare)).toBe(env.tasks.id(bare));
    expect(env.tasks.structureKey(mapFromRows(["S.~.G##", "..#.###", "...####"], "test"))).not.toBe(
      env.tasks.structureKey(bare),
    );
  });
});
