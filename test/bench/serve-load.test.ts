// bench/serve-load.ts's flags: --help prints its options and exits 0; an unknown flag or a bad number is a one-line
// error with the usage and exit 2 (the benchmark itself runs by hand: docs/benchmarks.md).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const tsx = ["node_modules/.bin/tsx", "bench/serve-load.ts"];

describe("bench/serve-load.ts flags", () => {
  it("prints its options for --help and exits 0", async () => {
    const { stdout } = await run(tsx[0]!, [tsx[1]!, "--help"]);
    expect(stdout).toMatch(/^Usage: npx tsx bench\/serve-load\.ts/);
    for (const flag of ["--ckpt", "--clients", "--duration", "--warmup", "--max-requests", "--drop-share"])
      expect(stdout).toContain(flag);
  }, 30_000);

  it("refuses an unknown flag and a bad number with exit 2", async () => {
    for (const args of [["--bogus"], ["--clients", "many"]]) {
      const failed = await run(tsx[0]!, [tsx[1]!, ...args]).then(
        () => undefined,
        (error: unknown) => error as { code: number; stderr: string },
      );
      expect(failed?.code, args.join(" ")).toBe(2);
      expect(failed?.stderr, args.join(" ")).toMatch(/^serve-load: /);
    }
  }, 30_000);
});
