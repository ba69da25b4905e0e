import { describe, expect, it } from "vitest";
import { evalResumeCommand, sftResumeCommand, shellWord, trainResumeCommand } from "../../src/core/commands.js";

describe("printed commands", () => {
  it("quote only what a shell would split or expand", () => {
    expect(shellWord("runs/x.db")).toBe("runs/x.db");
    expect(shellWord("my runs.db")).toBe("'my runs.db'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord("$HOME")).toBe("'$HOME'");
    expect(evalResumeCommand("sokoban-1", "a b.db")).toBe("budgetrl eval --resume --run sokoban-1 --db 'a b.db'");
    expect(trainResumeCommand("runs/x")).toBe("budgetrl train --out runs/x --resume");
    expect(sftResumeCommand("base")).toBe("budgetrl sft --out base --resume");
  });
});
