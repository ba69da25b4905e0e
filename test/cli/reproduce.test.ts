// `budgetrl reproduce`'s flags for a served base: the openai client flags are eval's, generated from
// clientOptionsSchema (each in the help, described for the openai base), a bad value is refused as the flags are read,
// naming the flag, before anything is written (exit 2), and with --resume they are given again, not ignored. (The study
// end to end with a served base and these flags: test/study/reproduce-served.test.ts.)
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_OPTION_FLAGS, clientOptionsSchema } from "../../src/policies/openai/options.js";
import { cli } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-reproduce-"));

describe("budgetrl reproduce's client flags", () => {
  it("lists every openai client flag in the help, with the schema's description for the openai base", async () => {
    const help = await cli("reproduce", "--help");
    expect(help.code).toBe(0);
    for (const row of CLIENT_OPTION_FLAGS.filter((row) => !("group" in row)))
      expect(help.stdout).toMatch(new RegExp(`^  ${row.flag} .*openai base: `, "m"));
    expect(help.stdout).toMatch(
      new RegExp(`^  --request-timeout <n> +openai base: ${clientOptionsSchema.shape.timeoutMs.description}`, "m"),
    );
    expect(help.stdout).toMatch(/^ {2}--no-cache +openai base: do not answer repeated requests/m);
    // How Tinker is reached: the same flags as train's and eval's, --tinker-deadline among them.
    for (const row of CLIENT_OPTION_FLAGS.filter((row) => "group" in row))
      expect(help.stdout).toMatch(new RegExp(`^  ${row.flag} .*tinker trainer: `, "m"));
    expect(help.stdout).toMatch(
      /^ {2}--tinker-deadline <n> +tinker trainer: .*the SDK's 5 minutes \(default: 300000\)$/m,
    );
  });

  it("refuses a bad client flag value before any work, naming the flag", async () => {
    const refused: [string[], RegExp][] = [
      [["--rpm", "-1"], /^budgetrl reproduce: --rpm: expected an integer from 0 to 10000000/],
      [["--request-timeout", "0"], /^budgetrl reproduce: --request-timeout: expected an integer from 1 to 3600000/],
      [["--base-url", "gpu-host/v1"], /^budgetrl reproduce: --base-url: expected a URL/],
      [["--api-key-env", "my key"], /^budgetrl reproduce: --api-key-env: expected an environment variable name/],
      [["--request-concurrency", "many"], /^budgetrl reproduce: --request-concurrency: /],
    ];
    for (const [flags, pattern] of refused) {
      const out = join(dir, "refused");
      const result = await cli("reproduce", "--base", "openai:m", ...flags, "--out", out, "--no-progress");
      expect(result.stderr).toMatch(pattern);
      expect(result.code).toBe(2);
      expect(existsSync(out)).toBe(false);
    }
  });

  it("keeps the client flags on --resume (how the base is reached, given again) and names the study's flags it ignores", async () => {
    const result = await cli(
      "reproduce",
      "--out",
      join(dir, "none"),
      "--resume",
      "--base-url",
      "http://127.0.0.1:8000/v1",
      "--rpm",
      "600",
      "--no-cache",
      "--preset",
      "full",
    );
    expect(result.stderr).toMatch(/^budgetrl reproduce: --preset ignored with --resume/m);
    expect(result.stderr).toMatch(/nothing to resume/);
    expect(result.code).toBe(2);
  });
});
