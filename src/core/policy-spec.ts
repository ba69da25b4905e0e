// A policy spec as data: what `--policy` names ("oracle:unbounded", "tiny:CKPT", "openai:MODEL", ...) as one typed
// union, parsed once where the text comes in (a flag, a stored run's policy) and written back by its label, with
// parsePolicySpec(policySpecLabel(spec)) deep-equal to spec. Code that needs to know what a model is (the study, its
// report) reads the union's fields instead of matching prefixes of the text.
//   random                      { kind: "random" }
//   oracle[:unbounded]          { kind: "oracle", horizon: "turns-left" | "unbounded" }
//   noisy-oracle:EPS            { kind: "noisy-oracle", epsilon }
//   replay[:FILE]               { kind: "replay", file? }
//   tiny:CHECKPOINT             { kind: "tiny", checkpoint }            the in-process transformer
//   openai:MODEL                { kind: "openai", model }               a model behind an OpenAI-compatible server
//   tinker:BASE[@CHECKPOINT]    { kind: "tinker", baseModel, checkpoint? }  sampled through a Tinker service: the
//                                base model itself, or the sampler weights a training checkpoint folder names
//   NAME[:ARGUMENT]             { kind: "other", name, argument? }      a kind a library user registered
// What each kind does, and which kinds exist at run time, is the policy registry's business (policies/spec.ts).
import { ConfigError } from "./errors.js";
import type { OracleHorizon } from "./policy.js";

export type PolicySpec =
  | { readonly kind: "random" }
  | { readonly kind: "oracle"; readonly horizon: OracleHorizon }
  | { readonly kind: "noisy-oracle"; readonly epsilon: number }
  | { readonly kind: "replay"; readonly file?: string }
  | { readonly kind: "tiny"; readonly checkpoint: string }
  | { readonly kind: "openai"; readonly model: string }
  | { readonly kind: "tinker"; readonly baseModel: string; readonly checkpoint?: string }
  | { readonly kind: "other"; readonly name: string; readonly argument?: string };

export type PolicySpecKind = PolicySpec["kind"];

function required(argument: string | undefined, kind: string, example: string, field: string): string {
  if (argument === undefined || argument.trim() === "") throw new ConfigError(field, `${kind} needs ${example}`);
  return argument;
}

/** The spec a policy text names; throws ConfigError naming `field` for a malformed one of a known kind. */
export function parsePolicySpec(text: string, field = "policy"): PolicySpec {
  const colon = text.indexOf(":");
  const kind = colon < 0 ? text : text.slice(0, colon);
  const argument = colon < 0 ? undefined : text.slice(colon + 1);
  switch (kind) {
    case "random":
      if (argument !== undefined) throw new ConfigError(field, `random takes no argument, got "${text}"`);
      return { kind };
    case "oracle":
      if (argument === undefined) return { kind, horizon: "turns-left" };
      if (argument === "unbounded") return { kind, horizon: "unbounded" };
      throw new ConfigError(
        field,
        `unknown oracle variant "${argument}"`,
        'use "oracle" (budget-aware) or "oracle:unbounded"',
      );
    case "noisy-oracle": {
      const epsilon = Number(argument);
      if (argument === undefined || argument.trim() === "" || !Number.isFinite(epsilon))
        throw new ConfigError(
          field,
          `noisy-oracle needs a probability, e.g. noisy-oracle:0.3 (got "${argument ?? ""}")`,
        );
      return { kind, epsilon };
    }
    case "replay":
      return argument === undefined ? { kind } : { kind, file: argument };
    case "tiny":
      return {
        kind,
        checkpoint: required(argument, "tiny", "a checkpoint folder, e.g. tiny:runs/x/checkpoints/step-000200", field),
      };
    case "openai":
      return { kind, model: required(argument, "openai", "a model name, e.g. openai:Qwen/Qwen3-8B", field) };
    case "tinker": {
      const body = required(
        argument,
        "tinker",
        "a base model, e.g. tinker:Qwen/Qwen3-8B (or tinker:BASE@CHECKPOINT)",
        field,
      );
      const at = body.indexOf("@");
      if (at < 0) return { kind, baseModel: body };
      const baseModel = body.slice(0, at);
      const checkpoint = body.slice(at + 1);
      if (baseModel === "" || checkpoint === "")
        throw new ConfigError(field, `expected tinker:BASE@CHECKPOINT, got "${text}"`);
      return { kind, baseModel, checkpoint };
    }
    default:
      if (kind === "") throw new ConfigError(field, `"${text}" names no policy`);
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
      return `tiny:${spec.checkpoint}`;
    case "openai":
      return `openai:${spec.model}`;
    case "tinker":
      return spec.checkpoint === undefined ? `tinker:${spec.baseModel}` : `tinker:${spec.baseModel}@${spec.checkpoint}`;
    case "other":
      return spec.argument === undefined ? spec.name : `${spec.name}:${spec.argument}`;
  }
}

/** The registry's name of a spec's kind ("noisy-oracle", or a library user's own). */
export function policySpecKindName(spec: PolicySpec): string {
  return spec.kind === "other" ? spec.name : spec.kind;
}
