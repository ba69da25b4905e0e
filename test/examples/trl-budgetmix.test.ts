// examples/trl_budgetmix.py is not run here (it needs a GPU, TRL and vLLM): it must compile, as `python3 -m
// py_compile` compiles it (its bytecode written to a temporary folder, not beside the example).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("examples/trl_budgetmix.py", () => {
  it("compiles with python3 -m py_compile", () => {
    const cache = mkdtempSync(join(tmpdir(), "budgetrl-pycache-"));
    const compiled = spawnSync("python3", ["-m", "py_compile", "examples/trl_budgetmix.py"], {
      env: { ...process.env, PYTHONPYCACHEPREFIX: cache },
      encoding: "utf8",
    });
    expect(compiled.stderr).toBe("");
    expect(compiled.status).toBe(0);
  });
});
