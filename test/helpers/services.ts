// The services the scale-out tests need, from the environment that `scripts/test-services.sh` prints (and .ci/run
// exports): BUDGETRL_TEST_POSTGRES (a PostgreSQL server's admin URL, for fresh databases) and BUDGETRL_TEST_REDIS.
// A missing service fails its tests loudly, naming what to start; only a developer may skip them, by setting
// BUDGETRL_SKIP_SERVICES=1 outside CI. The unit lane (vitest.unit.config.ts) sets BUDGETRL_LANE=unit: services are the
// full suite's, so their blocks are skipped there.
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, it } from "vitest";

export type Service = "postgres" | "redis";

const VARIABLES: Record<Service, string> = { postgres: "BUDGETRL_TEST_POSTGRES", redis: "BUDGETRL_TEST_REDIS" };
const START = 'start them with: eval "$(bash scripts/test-services.sh)" (Debian packages redis-server and postgresql)';

export function serviceUrl(service: Service): string | undefined {
  return process.env[VARIABLES[service]];
}

const skipping = (): boolean =>
  process.env["BUDGETRL_LANE"] === "unit" ||
  (process.env["BUDGETRL_SKIP_SERVICES"] === "1" && process.env["CI"] !== "true");

/** A describe block that needs something this machine may lack: run when `missing` is undefined, else a failing
 * test with that message (or, for a developer who set BUDGETRL_SKIP_SERVICES=1, skipped with it). */
export function describeNeeding(
  missing: { readonly what: string; readonly message: string } | undefined,
  title: string,
  body: () => void,
): void {
  if (missing === undefined) describe(title, body);
  else if (skipping()) describe.skip(`${title} (skipped: ${missing.message})`, body);
  else
    describe(title, () =>
      it(`needs ${missing.what}`, () => {
        throw new Error(missing.message);
      }),
    );
}

/** A describe block that needs services: run when they are given, else a failing test naming what to start (or,
 * for a developer who set BUDGETRL_SKIP_SERVICES=1, skipped with that message). */
export function describeWithServices(services: readonly Service[], title: string, body: () => void): void {
  const missing = services.filter((service) => serviceUrl(service) === undefined);
  const message = `${missing.map((service) => VARIABLES[service]).join(" and ")} not set: ${START}`;
  describeNeeding(missing.length === 0 ? undefined : { what: missing.join(" and "), message }, title, body);
}

let counter = 0;

const SHARED_DATABASE = "budgetrl_test";

async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The test server's database for test stores (made once; test processes racing to make it are fine). */
async function sharedDatabase(admin: string): Promise<URL> {
  await withAdmin(admin, async (client) => {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [SHARED_DATABASE]);
    if (found.rowCount !== 0) return;
    try {
      await client.query(`CREATE DATABASE ${SHARED_DATABASE}`);
    } catch (error) {
      if ((error as { code?: string }).code !== "42P04" && (error as { code?: string }).code !== "23505") throw error;
    }
  });
  const url = new URL(admin);
  url.pathname = `/${SHARED_DATABASE}`;
  return url;
}

/** A new, empty PostgreSQL store on the test server: its own schema (cheap, unlike a database per test) in a shared
 * database, reached through the URL's search_path option; its URL. */
export async function freshPostgresDatabase(): Promise<string> {
  const admin = serviceUrl("postgres");
  if (admin === undefined) throw new Error(`BUDGETRL_TEST_POSTGRES not set: ${START}`);
  const url = await sharedDatabase(admin);
  const schema = `t_${process.pid}_${counter++}_${randomUUID().slice(0, 8)}`;
  await withAdmin(url.toString(), (client) => client.query(`CREATE SCHEMA ${schema}`));
  url.searchParams.set("options", `-c search_path=${schema}`);
  return url.toString();
}

/** A store backend under test: how to get a fresh, empty store of it (an SQLite file path, or a database URL). */
export interface StoreBackendCase {
  readonly name: "sqlite" | "postgres";
  fresh(label?: string): Promise<string>;
}

const sqliteDir = (): string => mkdtempSync(join(tmpdir(), "budgetrl-stores-"));

export const STORE_BACKENDS: readonly StoreBackendCase[] = [
  { name: "sqlite", fresh: (label = "store") => Promise.resolve(join(sqliteDir(), `${label}-${counter++}.db`)) },
  { name: "postgres", fresh: () => freshPostgresDatabase() },
];

/** One describe block per store backend (the PostgreSQL one needs its service). */
export function describeEachStore(title: string, body: (backend: StoreBackendCase) => void): void {
  for (const backend of STORE_BACKENDS) {
    if (backend.name === "sqlite") describe(`${title} (sqlite)`, () => body(backend));
    else describeWithServices(["postgres"], `${title} (postgres)`, () => body(backend));
  }
}

/** The test Redis with its logical database `index` emptied: each test file takes its own, so that the workers of
 * one file never take the jobs of another running at the same time. */
export async function freshRedis(index: number): Promise<string> {
  const base = serviceUrl("redis");
  if (base === undefined) throw new Error(`BUDGETRL_TEST_REDIS not set: ${START}`);
  const url = new URL(base);
  url.pathname = `/${index}`;
  const { Redis } = await import("ioredis");
  const client = new Redis(url.toString(), { maxRetriesPerRequest: 1 });
  try {
    await client.flushdb();
  } finally {
    client.disconnect();
  }
  return url.toString();
}
