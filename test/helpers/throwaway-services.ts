// Services of a test's own, to stop and start again mid-run without touching the shared ones of
// scripts/test-services.sh: a PostgreSQL cluster (made as scripts/test-services.sh makes one: as root it belongs to
// the postgres user; commits are synchronous, so that an immediate stop, a crash, loses no committed row) and a Redis
// server without persistence (it comes back empty, as a restarted Redis without a save does), each on a free
// loopback port, in a temporary folder. Starting waits until the service answers. Without Debian's programs
// (postgresql, redis-server) the tests that need them fail, naming the package, as those of the shared services do.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { chownSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describeNeeding } from "./services.js";

const run = promisify(execFile);

export type OwnService = "postgres" | "redis";

/** The folder of the newest installed PostgreSQL's programs, if any. */
function postgresBin(): string | undefined {
  if (!existsSync("/usr/lib/postgresql")) return undefined;
  const versions = readdirSync("/usr/lib/postgresql").filter((version) =>
    existsSync(`/usr/lib/postgresql/${version}/bin/initdb`),
  );
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  return newest === undefined ? undefined : `/usr/lib/postgresql/${newest}/bin`;
}

const onPath = (program: string): boolean =>
  (process.env["PATH"] ?? "").split(":").some((folder) => folder !== "" && existsSync(join(folder, program)));

const PACKAGES: Record<OwnService, string> = { postgres: "postgresql", redis: "redis-server" };

/** A describe block whose tests start services of their own: run when the programs are installed, else a failing
 * test naming the Debian package (skipped only for a developer who set BUDGETRL_SKIP_SERVICES=1, outside CI). */
export function describeWithOwnServices(services: readonly OwnService[], title: string, body: () => void): void {
  const missing = services.filter((service) =>
    service === "postgres" ? postgresBin() === undefined : !onPath("redis-server"),
  );
  const message = `not installed: ${missing.map((service) => PACKAGES[service]).join(", ")} (apt-get install ${missing.map((service) => PACKAGES[service]).join(" ")}; .ci/run installs them)`;
  describeNeeding(missing.length === 0 ? undefined : { what: missing.join(" and "), message }, title, body);
}

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export interface ThrowawayPostgres {
  /** The admin URL of its "postgres" database (a fresh cluster: no tables). */
  readonly url: string;
  /** pg_ctl stop: "immediate" (as a crash), "fast" (connections terminated). */
  stop(mode: "immediate" | "fast"): Promise<void>;
  start(): Promise<void>;
  /** Stop it if it runs, and remove its folder. */
  remove(): Promise<void>;
}

const asRoot = (): boolean => process.getuid?.() === 0;

/** A program of the newest installed PostgreSQL, as the cluster's owner (postgres when this is root). */
async function postgresTool(program: string, args: readonly string[]): Promise<void> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error(`PostgreSQL is not installed: ${PACKAGES.postgres}`);
  const path = join(bin, program);
  if (asRoot()) await run("runuser", ["-u", "postgres", "--", path, ...args]);
  else await run(path, args);
}

export async function throwawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-pg-"));
  chmodSync(dir, 0o755);
  const data = join(dir, "data");
  mkdirSync(data);
  if (asRoot()) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    chownSync(data, Number(stdout.trim()), Number(group.trim()));
  }
  await postgresTool("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  let running = false;
  const start = async (): Promise<void> => {
    await postgresTool("pg_ctl", [
      "-D",
      data,
      "-l",
      join(data, "server.log"),
      "-w",
      "-s",
      "start",
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${data} -c fsync=off`,
    ]);
    running = true;
  };
  const stop = async (mode: "immediate" | "fast"): Promise<void> => {
    await postgresTool("pg_ctl", ["-D", data, "-m", mode, "-w", "-s", "stop"]);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async remove() {
      if (running) await stop("immediate");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ThrowawayRedis {
  readonly url: string;
  /** Stop the server (SIGTERM to its process, which this test started), and wait for its exit. */
  stop(): Promise<void>;
  /** Start it again on the same port, empty. */
  start(): Promise<void>;
  remove(): Promise<void>;
}

export async function throwawayRedis(): Promise<ThrowawayRedis> {
  const dir = mkdtempSync(join(tmpdir(), "budgetrl-redis-"));
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const child = spawn(
        "redis-server",
        ["--bind", "127.0.0.1", "--port", String(port), "--dir", dir, "--save", "", "--appendonly", "no"],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      server = child;
      let text = "";
      const onData = (chunk: Buffer): void => {
        text += chunk.toString();
        if (!/Ready to accept connections/.test(text)) return;
        child.stdout.off("data", onData);
        child.stdout.resume();
        resolve();
      };
      child.stdout.on("data", onData);
      child.once("exit", (code) => reject(new Error(`redis-server exited (${code}) before it was ready: ${text}`)));
      child.once("error", reject);
    });
  const stop = async (): Promise<void> => {
    const child = server;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    server = undefined;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
