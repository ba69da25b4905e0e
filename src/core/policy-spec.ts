// A policy spec as data: what `--policy` names ("oracle:unbounded", "tiny:CKPT", "openai:MODEL", ...) as one typed
// union, parsed once, at the edge, by the config field `policySpecField` (a zod codec, as budgets are): a flag, a
// library call or a stored run's config decodes to a PolicySpec, which travels typed through eval, the store's
// configs, the report, the study and SFT; the stored form is its label again, so a stored run reads back to the same
// spec (policySpecLabel(spec) decodes deep-equal to spec). Code that needs to know what a model is reads the union's
// fields, never prefixes of the text.
//   random                      { kind: "random" }
//   oracle[:unbounded]          { kind: "oracle", horizon: "turns-left" | "unbounded" }
//   noisy-oracle:EPS            { kind: "noisy-oracle", epsilon }
//   replay[:FILE]               { kind: "replay", file? }
//   tiny[:CHECKPOINT]           { kind: "tiny", checkpoint? }           the in-process transformer: a checkpoint
//                                folder, or (bare) a trainer's own model handed over as an object (its evaluations)
//   openai:MODEL                { kind: "openai", model }               a model behind an OpenAI-compatible server
//   tinker[:BASE|:tinker://PATH|:BASE@CHECKPOINT]
//                               { kind: "tinker", baseModel?, checkpoint? }  sampled through a Tinker service: a base
//                                model (or a training checkpoint folder: the kind tells them apart when it builds the
//                                policy), sampler weights by path, a checkpoint on its base model (the study's labels),
//                                or (bare) a trainer's own model handed over as an object
//   NAME[:ARGUMENT]             { kind: "other", name, argument? }      a kind a library user registered, or the name
//                                of a policy handed over as an object
// What each kind does, and which kinds exist at run time, is the policy registry's business (policies/spec.ts): it
// refuses what the text cannot (a missing checkpoint, an epsilon outside [0, 1], an unknown kind).
import { z } from "zod";
import { ConfigError } from "./errors.js";
import type { OracleHorizon } from "./policy.js";

export type PolicySpec =
  | { readonly kind: "random" }
  | { readonly kind: "oracle"; readonly horizon: OracleHorizon }
  | { readonly kind: "noisy-oracle"; readonly epsilon: number }
  | { readonly kind: "replay"; readonly file?: string }
  | { readonly kind: "tiny"; readonly checkpoint?: string }
  | { readonly kind: "openai"; readonly model: string }
  | { readonly kind: "tinker"; readonly baseModel?: string; readonly checkpoint?: string }
  | { readonly kind: "other"; readonly name: string; readonly argument?: string };

export type PolicySpecKind = PolicySpec["kind"];

/** Why a policy text names no spec, and what to write instead. */
interface PolicySpecProblem {
  readonly problem: string;
  readonly hint?: string;
}

const problem = (text: string, hint?: string): PolicySpecProblem =>
  hint === undefined ? { problem: text } : { problem: text, hint };

function tinkerSpec(text: string, body: string): PolicySpec | PolicySpecProblem {
  if (body.trim() === "")
    return problem(
      "tinker needs a base model, e.g. tinker:Qwen/Qwen3-8B (or tinker:tinker://PATH, tinker:BASE@CHECKPOINT)",
    );
  if (body.startsWith("tinker://")) return { kind: "tinker", checkpoint: body };
  const at = body.indexOf("@");
  if (at < 0) return { kind: "tinker", baseModel: body };
  const baseModel = body.slice(0, at);
  const checkpoint = body.slice(at + 1);
  if (baseModel === "" || checkpoint === "") return problem(`expected tinker:BASE@CHECKPOINT, got "${text}"`);
  return { kind: "tinker", baseModel, checkpoint };
}

/** The one parse of a policy text: the spec it names, or why it names none (a malformed spec of a known kind). */
function parsePolicySpec(text: string): PolicySpec | PolicySpecProblem {
  const colon = text.indexOf(":");
  const kind = colon < 0 ? text : text.slice(0, colon);
  const argument = colon < 0 ? undefined : text.slice(colon + 1);
  switch (kind) {
    case "random":
      return argument === undefined ? { kind } : problem(`random takes no argument, got "${text}"`);
    case "oracle":
      if (argument === undefined) return { kind, horizon: "turns-left" };
      if (argument === "unbounded") return { kind, horizon: "unbounded" };
      return problem(`unknown oracle variant "${argument}"`, 'use "oracle" (budget-aware) or "oracle:unbounded"');
    case "noisy-oracle": {
      const epsilon = Number(argument);
      if (argument === undefined || argument.trim() === "" || !Number.isFinite(epsilon))
        return problem(`noisy-oracle needs a probability, e.g. noisy-oracle:0.3 (got "${argument ?? ""}")`);
      return { kind, epsilon };
    }
    case "replay":
      return argument === undefined ? { kind } : { kind, file: argument };
    case "tiny":
      if (argument === undefined) return { kind };
      if (argument.trim() === "")
        return problem("tiny needs a checkpoint folder, e.g. tiny:runs/x/checkpoints/step-000200");
      return { kind, checkpoint: argument };
    case "openai":
      if (argument === undefined || argument.trim() === "")
        return problem("openai needs a model name, e.g. openai:Qwen/Qwen3-8B");
      return { kind, model: argument };
    case "tinker":
      return argument === undefined ? { kind } : tinkerSpec(text, argument);
    default:
      if (kind === "") return problem(`"${text}" names no policy`);
      return argument === undefined ? { kind: "other", name: kind } : { kind: "other", name: kind, argument };
  }
}

/** The text of a spec, as a user writes it and a run stores it. */
export function policySpecLabel(spec: PolicySpec): string {
  switch (spec.kind) {
    case "random":
      return "random";
    case "oracle":
      return spec.horizon === "unbounded" ? "oracle:unbounded" : "oracle";
    case "noisy-oracle":
      return `noisy-oracle:${spec.epsilon}`;
    case "replay":
      return spec.file === undefined ? "replay" : `replay:${spec.file}`;
    case "tiny":
      return spec.checkpoint === undefined ? "tiny" : `tiny:${spec.checkpoint}`;
    case "openai":
      return `openai:${spec.model}`;
    case "tinker":
      if (spec.baseModel !== undefined && spec.checkpoint !== undefined)
        return `tinker:${spec.baseModel}@${spec.checkpoint}`;
      return spec.baseModel === undefined && spec.checkpoint === undefined
        ? "tinker"
        : `tinker:${spec.baseModel ?? spec.checkpoint}`;
    case "other":
      return spec.argument === undefined ? spec.name : `${spec.name}:${spec.argument}`;
  }
}

/** The registry's name of a spec's kind ("noisy-oracle", or a library user's own). */
export function policySpecKindName(spec: PolicySpec): string {
  return spec.kind === "other" ? spec.name : spec.kind;
}

/** True for a value shaped as a PolicySpec (an object with a string `kind` and no `act`: not a Policy). */
export function isPolicySpec(value: unknown): value is PolicySpec {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === "string" &&
    !("act" in value)
  );
}

/** A spec as a library caller may hand it over: its text, or a PolicySpec (read by its label). */
const policySpecInput = z.union([z.string(), z.custom<PolicySpec>(isPolicySpec).transform(policySpecLabel)]);

/** A policy field of a config: "noisy-oracle:0.3" (or a PolicySpec) decoded to its PolicySpec, stored as its label. */
export function policySpecField() {
  return z.codec(policySpecInput, z.custom<PolicySpec>(), {
    decode: (text, context) => {
      const read = parsePolicySpec(text);
      if (!("problem" in read)) return read;
      context.issues.push({
        code: "custom",
        message: read.hint === undefined ? read.problem : `${read.problem} (${read.hint})`,
        input: text,
      });
      return z.NEVER;
    },
    encode: policySpecLabel,
  });
}

/** The spec a text names, decoded by the config field (library calls and flags read outside a config); throws
 * ConfigError naming `field` for a malformed one. */
export function readPolicySpec(text: string | PolicySpec, field = "policy"): PolicySpec {
  const decoded = z.safeDecode(policySpecField(), text);
  if (decoded.success) return decoded.data;
  throw new ConfigError(field, decoded.error.issues[0]?.message ?? `"${String(text)}" names no policy`);
}
