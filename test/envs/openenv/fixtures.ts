// The wire fixtures from OpenEnv's own pydantic types (scripts/openenv-wire-fixtures.py), and validators built from
// their JSON Schemas (zod's reading of them), for the tests of both directions.
import { readFileSync } from "node:fs";
import { z } from "zod";

export interface WireFixtures {
  readonly source: string;
  readonly wsErrorCodes: readonly string[];
  readonly jsonRpcErrorCodes: Readonly<Record<string, number>>;
  readonly reservedToolNames: readonly string[];
  readonly schemas: Readonly<Record<string, Record<string, unknown>>>;
  readonly messages: Readonly<Record<string, unknown>>;
}

export const wire = JSON.parse(readFileSync(new URL("./fixtures/wire.json", import.meta.url), "utf8")) as WireFixtures;

/** A validator of OpenEnv's type `name` (its JSON Schema as pydantic writes it). */
export function openEnvType(name: string): z.ZodType {
  const schema = wire.schemas[name];
  if (schema === undefined) throw new Error(`no schema ${name} in the fixtures`);
  return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
}

/** The problems of `value` as OpenEnv's type `name` (empty: it is one). */
export function problemsAs(name: string, value: unknown): string {
  const checked = openEnvType(name).safeParse(value);
  return checked.success ? "" : z.prettifyError(checked.error);
}
