// The acceptance check of "nothing lost on a pipe" (src/cli/exit.ts): `budgetrl export RUN` piped N times to a slow
// reader (test/cli/helpers.ts: stdout a 64 KiB pipe, read at full speed but for the last --slow-bytes, taken 4 KiB at
// a time with a pause of --pause-ms after each), each compared byte for byte with `export --out FILE`; prints each try
// that differs (bytes short, exit code) and a count. Without --db it makes the issue's run first: 9,600 episodes of sokoban (120 tasks x 20 samples x 4
// budgets, about 56 MB of JSON lines) in a temporary store. test/cli/exit.test.ts is the short version npm test runs.
//
//   npx tsx scripts/pipe-check.ts [--times 50] [--slow-bytes 262144] [--pause-ms 10] [--db FILE --run RUN]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cli, pipedToSlowReader } from "../test/cli/helpers.js";

const { values } = parseArgs({
  options: {
    times: { type: "string", default: "50" },
    "slow-bytes": { type: "string", default: String(256 * 1024) },
    "pause-ms": { type: "string", default: "10" },
    db: { type: "string" },
    run: { type: "string", default: "r" },
  },
});

async function issueRun(db: string, run: string): Promise<void> {
  const evaluated = await cli(
    ...["eval", "--env", "sokoban", "--policy", "noisy-oracle:0.3", "--tasks", "120", "--samples", "20"],
    ...["--budget", "50%,100%,150%,200%", "--run", run, "--db", db, "--no-progress", "--bootstrap", "0"],
  );
  if (evaluated.code !== 0) throw new Error(`eval failed: ${evaluated.stderr}`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-pipe-check-"));
  try {
    const db = values.db ?? join(dir, "runs.db");
    if (values.db === undefined) await issueRun(db, values.run);
    const file = join(dir, "export.jsonl");
    const exported = await cli("export", values.run, "--db", db, "--out", file);
    if (exported.code !== 0) throw new Error(`export --out failed: ${exported.stderr}`);
    const expected = readFileSync(file);
    console.log(`run ${values.run}: ${exported.stderr.trim()} (${expected.length} bytes)`);
    const times = Number(values.times);
    let identical = 0;
    const started = Date.now();
    for (let attempt = 1; attempt <= times; attempt++) {
      const piped = await pipedToSlowReader(["export", values.run, "--db", db], {
        fastBytes: expected.length - Number(values["slow-bytes"]),
        pauseMs: Number(values["pause-ms"]),
      });
      const same = piped.code === 0 && piped.stderr === "" && piped.stdout.equals(expected);
      if (same) identical++;
      else
        console.log(
          `try ${attempt}: ${expected.length - piped.stdout.length} bytes short, a prefix: ${expected.subarray(0, piped.stdout.length).equals(piped.stdout)}, exit ${piped.code}${piped.stderr === "" ? "" : `, stderr: ${piped.stderr.trim()}`}`,
        );
    }
    const seconds = (Date.now() - started) / 1000;
    console.log(`${identical} of ${times} piped exports byte-identical to the file export (${seconds.toFixed(0)} s)`);
    process.exitCode = identical === times ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
