// The playable part of a grid map: cells reached from the start through cells a move enters, never past an ending
// cell; everything else becomes the filler, and a fully playable map comes back unchanged.
import { describe, expect, it } from "vitest";
import { playableRows, type PlayableCells } from "../../../src/envs/shared/playable-rows.js";

const ICE: PlayableCells = { start: "S", blocks: "#", ends: "G", filler: "#" };
const LAKE: PlayableCells = { start: "S", blocks: "", ends: "GH", filler: "H" };

describe("playableRows", () => {
  it("turns cells walled off from the start into the filler and keeps the rest", () => {
    expect(playableRows(["S.#..", "..#.~", "###.."], ICE)).toEqual(["S.###", "..###", "#####"]);
    // Blocking cells stay what they are (the filler here), reached or not.
    expect(playableRows(["S~.G", "#..#"], ICE)).toEqual(["S~.G", "#..#"]);
  });

  it("enters an ending cell but never moves on from it", () => {
    // The ice right of the goal is reached only through it: the player never stands there.
    expect(playableRows(["S.G..", "###.."], ICE)).toEqual(["S.G##", "#####"]);
    // Frozenlake: holes end the episode, so a frozen cell behind holes is decoration; a hole next to the path stays.
    expect(playableRows(["SFFH", "FFHF", "FFFH", "HFFG"], LAKE)).toEqual(["SFFH", "FFHH", "FFFH", "HFFG"]);
  });

  it("gives back a map every cell of which is playable, and is unchanged by a second pass", () => {
    const rows = ["SFFF", "FHFH", "FFFH", "HFFG"];
    expect(playableRows(rows, LAKE)).toEqual(rows);
    const once = playableRows(["S.#..", "..#.~", "###.."], ICE);
    expect(playableRows(once, ICE)).toEqual(once);
  });

  it("reads the start from any of its characters and rows of unequal length", () => {
    const level = ["#####", "#@$.#", "#####  ", "#  #"];
    expect(playableRows(level, { start: "@+", blocks: "#", ends: "", filler: "#" })).toEqual([
      "#####",
      "#@$.#",
      "#######",
      "####",
    ]);
  });
});
