// Policy specs as users write them on the command line: "random", "oracle", "oracle:unbounded", "noisy-oracle:0.3", "replay",
// "replay:FILE", "tiny:CHECKPOINT", "openai:MODEL", "tinker:BASE|CHECKPOINT|tinker://PATH". Every kind is registered
// below, in this file, but tinker: (a model on a Tinker service), which tinker/policy-kind.ts registers with
// `registerPolicyKind` when imported (the Tinker adapter lives above this layer; budgetrl/rl, budgetrl/tinker and the
// commands import it); `registerPolicyKind` adds more (library users' own kinds).
//
// A kind may take options (`--policy-opt KEY=VALUE`): those that change results are stored with the run
// (`storedOptions` validates them and fills in every default), those that only say how to run it (server URL,
// limits, cache) come with every invocation (`PolicySetup.client`) and are never stored.
import { readFileSync } from "node:fs";
import { ConfigError } from "../core/errors.js";
import type { Policy } from "../core/policy.js";
import { noisyOraclePolicy } from "./scripted/noisy-oracle.js";
import { oraclePolicy, parseOracleHorizon } from "./scripted/oracle.js";
import { randomPolicy } from "./scripted/random.js";
import { parseReplayScript, replayPolicy } from "./scripted/replay.js";
import { loadCheckpoint } from "../nn/checkpoint.js";
import { createTinyPolicy } from "./tiny/policy.js";
import { readPolicySettings } from "./tiny/settings.js";
import type { JsonObject } from "../core/json.js";
import { openaiPolicyFromSpec, storedSamplingOptions } from "./openai/index.js";

/** What a policy is built with besides its spec. */
export interface PolicySetup {
  /** The options stored with the run (from `storedOptions`). */
  readonly options?: JsonObject;
  /** Options of this invocation only (openai: base URL, limits, retries, cache); validated by the kind. */
  readonly client?: Readonly<Record<string, unknown>>;
  /** The run's seed. */
  readonly runSeed?: number;
}

export interface PolicyKind {
  /** The part before the first ":". */
  readonly kind: string;
  readonly usage: string;
  readonly description: string;
  /** True for kinds that take client options (PolicySetup.client); others refuse them. */
  readonly usesClient?: boolean;
  /** Validates options and returns their stored form (defaults filled in); kinds without it take none. */
  storedOptions?(options: Readonly<Record<string, unknown>>): JsonObject;
  /** Builds the policy from the part after ":" (undefined when absent); throws ConfigError naming "policy". */
  create(argument: string | undefined, setup: PolicySetup): Policy | Promise<Policy>;
}

const kinds = new Map<string, PolicyKind>();

export function registerPolicyKind(kind: PolicyKind): void {
  kinds.set(kind.kind, kind);
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
  create: (argument) => oraclePolicy(parseOracleHorizon(argument)),
});
registerPolicyKind({
  kind: "noisy-oracle",
  usage: "noisy-oracle:EPS",
  description: "a random valid action with probability EPS, else an optimal one",
  create: (argument) => {
    const epsilon = Number(argument);
    if (argument === undefined || argument.trim() === "" || !Number.isFinite(epsilon)) {
      throw new ConfigError(
        "policy",
        `noisy-oracle needs a probability, e.g. noisy-oracle:0.3 (got "${argument ?? ""}")`,
      );
    }
    return noisyOraclePolicy(epsilon);
  },
});
registerPolicyKind({
  kind: "replay",
  usage: "replay[:FILE]",
  description: "plays per-task action lists from FILE (JSON), or the env's reference solution (BFCL: the ground truth)",
  create: (argument) => {
    if (argument === undefined) return replayPolicy();
    let text: string;
    try {
      text = readFileSync(argument, "utf8");
    } catch (error) {
      throw new ConfigError("policy", `cannot read replay file ${argument}: ${(error as Error).message}`);
    }
    return replayPolicy(parseReplayScript(text, argument));
  },
});

registerPolicyKind({
  kind: "tiny",
  usage: "tiny:CHECKPOINT",
  description: "the in-process transformer from a checkpoint folder (budgetrl sft / train), sampling at temperature 1",
  create: async (argument) => {
    if (argument === undefined || argument === "")
      throw new ConfigError("policy", "tiny needs a checkpoint folder, e.g. tiny:runs/x/checkpoints/step-000200");
    let model;
    let settings;
    try {
      settings = readPolicySettings(argument);
      model = await loadCheckpoint(argument);
    } catch (error) {
      throw new ConfigError("policy", `cannot load checkpoint ${argument}: ${(error as Error).message}`);
    }
    if (settings.renderer !== undefined && settings.renderer !== "bytes") {
      model.dispose();
      throw new ConfigError(
        "policy",
        `${argument} was trained with the renderer ${settings.renderer}, and tiny: renders the tiny policy's bytes`,
        "serve it with `budgetrl serve --ckpt DIR` (it renders with the checkpoint's renderer) and evaluate --policy openai:NAME",
      );
    }
    const owned = model;
    // The model belongs to this policy: closing it gives its weights, workspaces and KV caches back to the shared
    // heap (a study evaluates dozens of checkpoints in one process; the heap stops at 4 GiB).
    return {
      ...createTinyPolicy({ model: owned, name: `tiny:${argument}`, maxNewTokens: settings.maxNewTokens }),
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
  create: (argument, setup) => openaiPolicyFromSpec(argument, setup),
});

function kindOf(spec: string): { kind: PolicyKind; argument: string | undefined } {
  const colon = spec.indexOf(":");
  const kindName = colon < 0 ? spec : spec.slice(0, colon);
  const kind = kinds.get(kindName);
  if (kind === undefined) {
    // tinker: lives with the Tinker client (tinker/policy-kind.ts), which registers it when imported.
    if (kindName === "tinker")
      throw new ConfigError(
        "policy",
        `the policy kind tinker is not registered in this process (${spec})`,
        'import "budgetrl/tinker" (or "budgetrl/rl") first: it registers tinker:',
      );
    throw new ConfigError(
      "policy",
      `unknown policy "${spec}"`,
      `use one of: ${[...kinds.values()].map((entry) => entry.usage).join(", ")}`,
    );
  }
  return { kind, argument: colon < 0 ? undefined : spec.slice(colon + 1) };
}

/** The stored form of a spec's options (undefined when there are none); throws ConfigError for a bad one, or
 * for options given to a kind that takes none. */
export function storedPolicyOptions(
  spec: string,
  options: Readonly<Record<string, unknown>> | undefined,
): JsonObject | undefined {
  const { kind } = kindOf(spec);
  if (kind.storedOptions === undefined) {
    const given = Object.keys(options ?? {});
    if (given.length > 0)
      throw new ConfigError(`policyOptions.${given[0] as string}`, `policy ${kind.kind} takes no options`);
    return undefined;
  }
  return kind.storedOptions(options ?? {});
}

export async function createPolicy(spec: string, setup: PolicySetup = {}): Promise<Policy> {
  const { kind, argument } = kindOf(spec);
  const client = Object.keys(setup.client ?? {});
  if (kind.usesClient !== true && client.length > 0)
    throw new ConfigError(client[0] as string, `applies to openai and tinker policies only, not to ${kind.kind}`);
  return kind.create(argument, setup);
}
