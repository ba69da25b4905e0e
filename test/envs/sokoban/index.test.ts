import { describe, expect, it } from "vitest";
import { sokoban } from "../../../src/envs/sokoban/index.js";
import { playReplies } from "../../helpers/play-replies.js";
import { runEnvContract } from "../contract.js";

runEnvContract("sokoban", () => sokoban(), { deterministic: true });
runEnvContract("sokoban 7x7 with 2 boxes", () => sokoban({ width: 7, height: 7, boxes: 2 }), {
  deterministic: true,
  seeds: [0, 1, 2, 3],
  fuzzRuns: 2000,
});

describe("sokoban env", () => {
  const env = sokoban();
  const [task] = env.tasks.parse("#######\n#     #\n# $ . #\n#  @  #\n#######");
  const play = (actions: readonly string[]) => playReplies(env, env.reset(task!, { seed: 0 }).state, actions);

  it("plays an imported level to success with RAGEN's rewards and the oracle's progress", () => {
    const steps = play(["Left", "<answer>left</answer>", "u", "Right", "RIGHT"]);
    expect(steps.map((step) => Math.round(step.reward * 10) / 10)).toEqual([-0.1, -0.1, -0.1, -0.1, 10.9]);
    expect(steps.map((step) => step.info.progress)).toEqual([-4, -3, -2, -1, -0]);
    expect(steps.map((step) => step.terminated)).toEqual([false, false, false, false, true]);
    expect(steps[4]!.info.stopReason).toBe("success");
    expect(steps[3]!.observation[0]!.content).toBe("Pushed a box Right.\n#######\n#_____#\n#_@$._#\n#_____#\n#######");
    expect(steps[4]!.observation[0]!.content).toBe(
      "Pushed a box Right. Every box is on a goal: solved!\n#######\n#_____#\n#__@*_#\n#_____#\n#######",
    );
  });

  it("starts with the rules and the grid, and a reference budget of 4x the optimal length", () => {
    const { observation, info } = env.reset(task!, { seed: 0 });
    expect(observation[0]!.content).toContain("Sokoban");
    expect(observation[1]!.content).toBe("#######\n#_____#\n#_$_._#\n#__@__#\n#######");
    expect(info.progress).toBe(-5);
    expect(env.tasks.referenceBudget(task!, "episode")).toBe(20);
    expect(env.tasks.id(task!)).toMatch(/^sokoban-[0-9a-f]{14}$/);
  });

  it("treats walking into a wall as a legal move that changes nothing", () => {
    const [bump] = play(["Down"]);
    expect(bump!.info).toMatchObject({ invalid: false, parsedAction: "Down", progress: -5 });
    expect(bump!.info.stateKey).toBe(env.reset(task!, { seed: 0 }).info.stateKey);
    expect(bump!.reward).toBeCloseTo(-0.1, 12);
    expect(bump!.observation[0]!.content.startsWith("Down is blocked")).toBe(true);
  });

  it("reports deadlocks through the oracle (remaining Infinity) with a finite progress below every solvable state", () => {
    const steps = play(["Left", "Up"]);
    const deadlocked = steps[1]!;
    expect(deadlocked.reward).toBeCloseTo(-0.1, 12);
    expect(env.oracle!.answer(deadlocked.state)).toEqual({ optimal: [], remaining: Infinity, value: 0 });
    expect(Number.isFinite(deadlocked.info.progress)).toBe(true);
    expect(deadlocked.info.progress).toBeLessThan(-5);
    expect(deadlocked.terminated).toBe(false);
  });

  it("says which imported levels cannot be played: unsolvable ones, and ones past the oracle's state cap, apart", () => {
    const [solvable, unsolvable] = env.tasks.parse("#####\n#@$.#\n#####\n\n#####\n#@$ #\n#. ##\n#####\n");
    expect(env.tasks.problem?.(solvable!)).toBeUndefined();
    expect(env.tasks.problem?.(unsolvable!)).toBe(
      "cannot be solved: the BFS oracle searched all 7 states reachable from the start and in none is every box on a goal",
    );
    // An open 12x10 room with three boxes: tens of thousands of states, far past a cap of 1000.
    const rows = ["#".repeat(14), ...Array.from({ length: 10 }, () => `#${" ".repeat(12)}#`), "#".repeat(14)].map(
      (row) => [...row],
    );
    for (const [row, column, char] of [
      [1, 1, "@"],
      [3, 3, "$"],
      [5, 5, "$"],
      [7, 7, "$"],
      [9, 9, "."],
      [9, 10, "."],
      [9, 11, "."],
    ] as const)
      rows[row]![column] = char;
    const [large] = env.tasks.parse(rows.map((row) => row.join("")).join("\n"));
    expect(sokoban({ maxStates: 1000 }).tasks.problem?.(large!)).toMatch(
      /^has more than 1000 reachable states, past what the BFS oracle builds \(sokoban option maxStates\), so whether it can be solved is not known: raise it/,
    );
  });

  it("stays solved if stepped again after the end", () => {
    const steps = play(["Left", "Left", "Up", "Right", "Right", "Left"]);
    expect(steps[5]).toMatchObject({ reward: 0, terminated: true, info: { stopReason: "success" } });
  });

  it("gives every generated task the same id after a JSON round trip, and distinct ids to distinct tasks", () => {
    const tasks = Array.from({ length: 30 }, (_, seed) => env.tasks.generate(seed));
    const ids = new Set(
      tasks.map((generated) =>
        sokoban().tasks.id(sokoban().tasks.decode(JSON.parse(JSON.stringify(env.tasks.encode(generated))))),
      ),
    );
    expect(ids).toEqual(new Set(tasks.map((generated) => env.tasks.id(generated))));
    expect(ids.size).toBe(new Set(tasks.map((generated) => generated.rows.join("\n"))).size);
  });

  it("validates its options", () => {
    expect(() => sokoban({ boxes: 9 })).toThrow("sokoban.boxes");
  });

  it("keys a level's structure by its playable part: generated levels by themselves, floor outside walls left out", () => {
    for (let seed = 0; seed < 20; seed++) {
      const level = env.tasks.generate(seed);
      expect(env.tasks.structureKey(level)).toBe(env.tasks.id(level));
    }
    const [outside] = env.tasks.parse("#######   \n#     #   \n# $ . #  _\n#  @  #   \n#######   ");
    expect(env.tasks.id(outside!)).not.toBe(env.tasks.id(task!));
    const [walled] = env.tasks.parse("##########\n#     ####\n# $ . ####\n#  @  ####\n##########");
    expect(env.tasks.structureKey(outside!)).toBe(env.tasks.structureKey(walled!));
    expect(env.tasks.structureKey(task!)).not.toBe(env.tasks.structureKey(walled!));
    expect(env.tasks.distinctStructures).toBeUndefined();
  });
});
