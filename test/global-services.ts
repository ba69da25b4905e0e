// Vitest global set-up: the scale-out tests need Redis and PostgreSQL on loopback. When their URLs are not given
// (BUDGETRL_TEST_REDIS, BUDGETRL_TEST_POSTGRES) and Debian's redis-server and postgresql are installed, start them
// with scripts/test-services.sh (idempotent, loopback only) before the test files run, so that `npm test` works as
// it is; without the packages the tests that need them fail, naming what to install and start.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

function installed(): boolean {
  const onPath = (name: string): boolean =>
    (process.env["PATH"] ?? "").split(":").some((folder) => folder !== "" && existsSync(`${folder}/${name}`));
  const postgres =
    existsSync("/usr/lib/postgresql") &&
    readdirSync("/usr/lib/postgresql").some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/initdb`));
  return onPath("redis-server") && postgres;
}

export default function setup(): void {
  if (process.env["BUDGETRL_TEST_REDIS"] !== undefined && process.env["BUDGETRL_TEST_POSTGRES"] !== undefined) return;
  if (process.env["BUDGETRL_SKIP_SERVICES"] === "1" || !installed()) return;
  const script = fileURLToPath(new URL("../scripts/test-services.sh", import.meta.url));
  const exports = execFileSync("bash", [script], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  for (const [, name, value] of exports.matchAll(/^export (\w+)=(\S+)$/gm)) {
    if (name !== undefined && value !== undefined) process.env[name] ??= value;
  }
}
