// The policy registry: every kind of policy by its name, each building a policy from its typed spec (a PolicySpec,
// core/policy-spec.ts, decoded once from "random", "oracle:unbounded", "noisy-oracle:0.3", "replay:FILE",
// "tiny:CHECKPOINT", "openai:MODEL", "tinker:..." by the configs' policy field). Every kind is registered below, in
// this file, but tinker (a model on a Tinker service), which tinker/policy-kind.ts registers with `registerPolicyKind`
// when imported (the Tinker adapter lives above this layer; budgetrl/rl, budgetrl/tinker and the commands import it);
// `registerPolicyKind` adds more (library users' own kinds, whose specs are { kind: "other", name, argument? }).
//
// A kind may take options (`--policy-opt KEY=VALUE`): those that change results are stored with the run
// (`storedOptions` validates them and fills in every default), those that only say how to run it (server URL,
// limits, cache) come with every invocation (`PolicySetup.client`) and are never stored.
import { readFileSync } from "node:fs";
import { ConfigError } from "../core/errors.js";
import type { Policy } from "../core/policy.js";
import { policySpecKindName, policySpecLabel, type PolicySpec, type PolicySpecKind } from "../core/policy-spec.js";
import { noisyOraclePolicy } from "./scripted/noisy-oracle.js";
import { oraclePolicy } from "./scripted/oracle.js";
import { randomPolicy } from "./scripted/random.js";
import { parseReplayScript, replayPolicy } from "./scripted/replay.js";
import { loadCheckpoint } from "../nn/checkpoint.js";
import { createTinyPolicy } from "./tiny/policy.js";
import { readPolicySettings } from "./tiny/settings.js";
import type { JsonObject } from "../core/json.js";
import type { WaitListener } from "../core/wait-notice.js";
import { openaiPolicyFromSpec, storedSamplingOptions } from "./openai/index.js";

/** What a policy is built with besides its spec. */
export interface PolicySetup {
  /** The options stored with the run (from `storedOptions`). */
  readonly options?: JsonObject;
  /** Options of this invocation only (openai: base URL, limits, retries, cache); validated by the kind. */
  readonly client?: Readonly<Record<string, unknown>>;
  /** The run's seed. */
  readonly runSeed?: number;
  /** Told, in one line each, of waits for the policy's server (an outage as it starts, once a minute, as it ends);
   * default: stderr. */
  readonly onWait?: WaitListener;
}

/** The spec a kind called `Name` builds from: its own branch of the union, or `other` for a library user's kind. */
export type PolicySpecOf<Name extends string> =
  Name extends Exclude<PolicySpecKind, "other">
    ? Extract<PolicySpec, { kind: Name }>
    : Extract<PolicySpec, { kind: "other" }>;

export interface PolicyKind<Name extends string = string> {
  /** The kind's name: a spec's `kind`, or the `name` of an `other` spec. */
  readonly kind: Name;
  readonly usage: string;
  readonly description: string;
  /** True for kinds that take client options (PolicySetup.client); others refuse them. */
  readonly usesClient?: boolean;
  /** Validates options and returns their stored form (defaults filled in); kinds without it take none. */
  storedOptions?(options: Readonly<Record<string, unknown>>): JsonObject;
  /** Builds the policy from its spec; throws ConfigError naming "policy" for what the spec's text cannot say. */
  create(spec: PolicySpecOf<Name>, setup: PolicySetup): Policy | Promise<Policy>;
}

const kinds = new Map<string, PolicyKind>();

export function registerPolicyKind<Name extends string>(kind: PolicyKind<Name>): void {
  // Looked up by policySpecKindName(spec), so `create` is only ever handed its own branch of the union.
  kinds.set(kind.kind, kind as unknown as PolicyKind);
}

export function policyKinds(): readonly PolicyKind[] {
  return [...kinds.values()];
}

registerPolicyKind({
  kind: "random",
  usage: "random",
  description: "a uniformly random valid action each turn",
  create: () => randomPolicy(),
});
registerPolicyKind({
  kind: "oracle",
  usage: "oracle[:unbounded]",
  description: "an optimal action each turn within the turns left (ties at random); :unbounded ignores the budget",
  create: (spec) => oraclePolicy(spec.horizon),
});
registerPolicyKind({
  kind: "noisy-oracle",
  usage: "noisy-oracle:EPS",
  description: "a random valid action with probability EPS, else an optimal one",
  create: (spec) => noisyOraclePolicy(spec.epsilon),
});
registerPolicyKind({
  kind: "replay",
  usage: "replay[:FILE]",
  description: "plays per-task action lists from FILE (JSON), or the env's reference solution (BFCL: the ground truth)",
  create: (spec) => {
    if (spec.file === undefined) return replayPolicy();
    let text: string;
    try {
      text = readFileSync(spec.file, "utf8");
    } catch (error) {
      throw new ConfigError("policy", `cannot read replay file ${spec.file}: ${(error as Error).message}`);
    }
    return replayPolicy(parseReplayScript(text, spec.file));
  },
});

registerPolicyKind({
  kind: "tiny",
  usage: "tiny:CHECKPOINT",
  description: "the in-process transformer from a checkpoint folder (budgetrl sft / train), sampling at temperature 1",
  create: async (spec) => {
    const checkpoint = spec.checkpoint;
    if (checkpoint === undefined)
      throw new ConfigError("policy", "tiny needs a checkpoint folder, e.g. tiny:runs/x/checkpoints/step-000200");
    let model;
    let settings;
    try {
      settings = readPolicySettings(checkpoint);
      model = await loadCheckpoint(checkpoint);
    } catch (error) {
      throw new ConfigError("policy", `cannot load checkpoint ${checkpoint}: ${(error as Error).message}`);
    }
    if (settings.renderer !== undefined && settings.renderer !== "bytes") {
      model.dispose();
      throw new ConfigError(
        "policy",
        `${checkpoint} was trained with the renderer ${settings.renderer}, and tiny: renders the tiny policy's bytes`,
        "serve it with `budgetrl serve --ckpt DIR` (it renders with the checkpoint's renderer) and evaluate --policy openai:NAME",
      );
    }
    const owned = model;
    // The model belongs to this policy: closing it gives its weights, workspaces and KV caches back to the shared
    // heap (a study evaluates dozens of checkpoints in one process; the heap stops at 4 GiB).
    return {
      ...createTinyPolicy({ model: owned, name: `tiny:${checkpoint}`, maxNewTokens: settings.maxNewTokens }),
      close: () => owned.dispose(),
    };
  },
});

registerPolicyKind({
  kind: "openai",
  usage: "openai:MODEL",
  description:
    "a model behind an OpenAI-compatible server (--base-url; vLLM, SGLang, llama.cpp, Ollama, hosted APIs), options with --policy-opt",
  usesClient: true,
  storedOptions: (options) => storedSamplingOptions(options),
  create: (spec, setup) => openaiPolicyFromSpec(spec.model, setup),
});

/** The registered kind that builds `spec`; throws ConfigError for a kind this process does not know. */
function kindOf(spec: PolicySpec): PolicyKind {
  const kind = kinds.get(policySpecKindName(spec));
  if (kind !== undefined) return kind;
  // tinker: lives with the Tinker client (tinker/policy-kind.ts), which registers it when imported.
  if (spec.kind === "tinker")
    throw new ConfigError(
      "policy",
      `the policy kind tinker is not registered in this process (${policySpecLabel(spec)})`,
      'import "budgetrl/tinker" (or "budgetrl/rl") first: it registers tinker:',
    );
  throw new ConfigError(
    "policy",
    `unknown policy "${policySpecLabel(spec)}"`,
    `use one of: ${[...kinds.values()].map((entry) => entry.usage).join(", ")}`,
  );
}

/** The stored form of a spec's options (undefined when there are none); throws ConfigError for a bad one, or
 * for options given to a kind that takes none. */
export function storedPolicyOptions(
  spec: PolicySpec,
  options: Readonly<Record<string, unknown>> | undefined,
): JsonObject | undefined {
  const kind = kindOf(spec);
  if (kind.storedOptions === undefined) {
    const given = Object.keys(options ?? {});
    if (given.length > 0)
      throw new ConfigError(`policyOptions.${given[0] as string}`, `policy ${kind.kind} takes no options`);
    return undefined;
  }
  return kind.storedOptions(options ?? {});
}

/** The policy a spec names, built by its kind. */
export async function createPolicy(spec: PolicySpec, setup: PolicySetup = {}): Promise<Policy> {
  const kind = kindOf(spec);
  const client = Object.keys(setup.client ?? {});
  if (kind.usesClient !== true && client.length > 0)
    throw new ConfigError(client[0] as string, `applies to openai and tinker policies only, not to ${kind.kind}`);
  return kind.create(spec as PolicySpecOf<string>, setup);
}
