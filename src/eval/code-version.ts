// The code version stored with every run: the package version, plus the git commit when running from a clone.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

export function codeVersion(): string {
  if (cached !== undefined) return cached;
  const root = fileURLToPath(new URL("../../", import.meta.url));
  let version = "unknown";
  try {
    version = (JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { version?: string }).version ?? version;
  } catch {
    // Not fatal: the version is informative only.
  }
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2000,
    })
      .toString()
      .trim();
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
        cwd: root,
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 2000,
      })
        .toString()
        .trim() !== "";
    if (commit !== "") version += `+${commit}${dirty ? "-dirty" : ""}`;
  } catch {
    // Not a git checkout (an installed package): the package version alone.
  }
  cached = version;
  return version;
}
