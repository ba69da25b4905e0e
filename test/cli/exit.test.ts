// The CLI's exit (src/cli/exit.ts): nothing a command printed is lost on a pipe. In-process, with a stdout whose
// writes complete when the test says so; then end to end, the CLI's stdout a pipe read slowly (`budgetrl ... | cat`
// with a reader that pauses after every chunk), compared byte for byte with what the command writes to a file or
// prints in-process, for the commands that print a lot: export (its last 256 KiB read slowly), show and runs (one
// write larger than the pipe). Before exit.ts, the CLI exited while its last writes still waited in Node, and every
// one of these lost its tail (export: 10 tries of 10; scripts/pipe-check.ts runs 50 on the 9,600 episodes).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { cliExit, flushed } from "../../src/cli/exit.js";
import { createRun, getRun } from "../../src/store/runs.js";
import { openSqlite } from "../helpers/sqlite.js";
import { cli, pipedToSlowReader } from "./helpers.js";

/** A stream whose writes wait until `release` (a reader catching up: later writes then complete at once) or `fail`
 * (the reader gone); `taken` is what completed, in order. */
function heldStream(): { stream: Writable; taken: string[]; release(): void; fail(error: Error): void } {
  const waiting: { text: string; done: (error?: Error) => void }[] = [];
  const taken: string[] = [];
  let open = false;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!open) return void waiting.push({ text: chunk.toString(), done });
      taken.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    taken,
    release() {
      open = true;
      // Completing a write hands the stream its next one: release until none waits.
      for (let next = waiting.shift(); next !== undefined; next = waiting.shift()) {
        taken.push(next.text);
        next.done();
      }
    },
    fail(error) {
      waiting.shift()?.done(error);
    },
  };
}

type Held = ReturnType<typeof heldStream>;

/** A stream whose writes complete at once. */
function openStream(): Held {
  const stream = heldStream();
  stream.release();
  return stream;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function brokenPipe(): Error {
  return Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
}

describe("flushed", () => {
  it("resolves once every earlier write completed, with the error when one fails", async () => {
    const held = heldStream();
    held.stream.write("a");
    held.stream.write("b");
    const done = flushed(held.stream);
    await turn();
    held.release();
    expect(await done).toBeUndefined();
    expect(held.taken.join("")).toBe("ab");

    const failing = heldStream();
    failing.stream.on("error", () => undefined);
    failing.stream.write("a");
    const failed = flushed(failing.stream);
    failing.fail(brokenPipe());
    expect(await failed).toMatchObject({ code: "EPIPE" });
    expect(await flushed(failing.stream)).toMatchObject({ code: "EPIPE" });
  });
});

describe("cliExit", () => {
  it("exits with the command's code only once stdout and stderr took everything written to them", async () => {
    const stdout = heldStream();
    const stderr = heldStream();
    const exits: { code: number; stdout: string; stderr: string }[] = [];
    const end = cliExit({
      stdout: stdout.stream,
      stderr: stderr.stream,
      exit: (code) => void exits.push({ code, stdout: stdout.taken.join(""), stderr: stderr.taken.join("") }),
    });
    stdout.stream.write("the last lines\n");
    stderr.stream.write("a note\n");
    const ended = end(3);
    await turn();
    expect(exits).toEqual([]);
    stdout.release();
    await turn();
    expect(exits).toEqual([]);
    stderr.release();
    await ended;
    expect(exits).toEqual([{ code: 3, stdout: "the last lines\n", stderr: "a note\n" }]);
    await end(0);
    expect(exits).toHaveLength(1);
  });

  /** cliExit on a stdout held until the test fails it, and a stderr that takes everything at once. */
  function failingStdout(): { stdout: Held; stderr: Held; end: ReturnType<typeof cliExit>; exited: Promise<number> } {
    const stdout = heldStream();
    const stderr = openStream();
    let end: ReturnType<typeof cliExit> | undefined;
    const exited = new Promise<number>((resolve) => {
      end = cliExit({ stdout: stdout.stream, stderr: stderr.stream, exit: resolve });
    });
    stdout.stream.write("x");
    return { stdout, stderr, end: end!, exited };
  }

  it("ends quietly with 0 when the reader went away (EPIPE), whatever the command returns", async () => {
    const returned = failingStdout();
    returned.stdout.fail(brokenPipe());
    void returned.end(2);
    expect(await returned.exited).toBe(0);
    // Still running when the reader goes away: the command ends there.
    const running = failingStdout();
    running.stdout.fail(brokenPipe());
    expect(await running.exited).toBe(0);
    expect(returned.stderr.taken.join("") + running.stderr.taken.join("")).toBe("");
  });

  it("says why stdout failed otherwise, with code 74, after an internal error's message", async () => {
    const failing = failingStdout();
    void failing.end(70, "budgetrl: internal error: boom\n");
    failing.stdout.fail(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }));
    expect(await failing.exited).toBe(74);
    expect(failing.stderr.taken.join("")).toBe(
      "budgetrl: internal error: boom\nbudgetrl: cannot write to stdout: ENOSPC: no space left on device, write\n",
    );
  });
});

describe("the CLI on a slow pipe", () => {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-cli-exit-"));
  const db = join(dir, "runs.db");
  const file = join(dir, "r.jsonl");
  const runs = 200;

  beforeAll(async () => {
    const evaluated = await cli(
      ...["eval", "--env", "sokoban", "--policy", "noisy-oracle:0.3", "--tasks", "60", "--samples", "1"],
      ...["--budget", "50%,100%,150%,200%", "--run", "r", "--db", db, "--no-progress", "--bootstrap", "0"],
    );
    expect(evaluated.code).toBe(0);
    expect((await cli("export", "r", "--db", db, "--out", file)).code).toBe(0);
    // Copies of the run's record (no episodes), so that `runs --json` prints more than a pipe holds.
    const store = openSqlite(db);
    const record = await getRun(store, "r");
    for (let index = 1; index < runs; index++) await createRun(store, { ...record, id: `r-${index}` }, []);
    store.close();
  }, 120_000);

  it("export: every piped export equals the --out file, byte for byte, with exit 0", async () => {
    const expected = readFileSync(file);
    expect(expected.length).toBeGreaterThan(1_000_000);
    for (let attempt = 0; attempt < 3; attempt++) {
      const piped = await pipedToSlowReader(["export", "r", "--db", db], { fastBytes: expected.length - 256 * 1024 });
      expect({ code: piped.code, stderr: piped.stderr, bytes: piped.stdout.length }).toEqual({
        code: 0,
        stderr: "",
        bytes: expected.length,
      });
      expect(piped.stdout.equals(expected)).toBe(true);
    }
  }, 120_000);

  it("show and runs: the piped text equals what they print in-process", async () => {
    for (const argv of [
      ["show", "r", "--db", db, "--json", "--analyses"],
      ["runs", "--db", db, "--json"],
    ]) {
      const expected = await cli(...argv);
      expect(expected.stdout.length).toBeGreaterThan(150_000);
      const piped = await pipedToSlowReader(argv);
      expect({ code: piped.code, stderr: piped.stderr, bytes: piped.stdout.length }).toEqual({
        code: expected.code,
        stderr: expected.stderr,
        bytes: Buffer.byteLength(expected.stdout),
      });
      expect(piped.stdout.toString()).toBe(expected.stdout);
    }
  }, 120_000);
});
