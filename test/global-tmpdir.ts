// Vitest global set-up: every test file's temporary folders go under one folder made for this test run (TMPDIR,
// which os.tmpdir() reads and the test processes and the CLIs they spawn inherit), removed when the run ends, so
// that `npm test` leaves nothing behind in /tmp however a test file ends. Like /tmp, anyone may write in it.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const previous = process.env["TMPDIR"];
  const root = mkdtempSync(join(tmpdir(), "budgetrl-tests-"));
  // Open to every user with the sticky bit, as /tmp is: some tests run the CLI as another user (a read-only store).
  chmodSync(root, 0o1777);
  process.env["TMPDIR"] = root;
  return () => {
    if (previous === undefined) delete process.env["TMPDIR"];
    else process.env["TMPDIR"] = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
