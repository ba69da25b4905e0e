// The renderer names the train config accepts ("bytes" or "hf:DIR"), checked without loading a renderer: the
// config is parsed (and stored runs read, as the report does) without the Hugging Face tokenizer and template
// packages that renderer.ts loads with hf-renderer.ts.
import { z } from "zod";
import { hfRendererDir } from "./hf-files.js";

/** The renderer names the train config accepts: "bytes", or "hf:" and a folder. */
export const RENDERER_NAMES = ["bytes", "hf:DIR"] as const;

/** The renderer a config without one uses: budgetrl's byte tokenizer. */
export const DEFAULT_RENDERER = "bytes";

/** Why `name` is not a renderer name (its folder not checked), or undefined when it is one. */
export function rendererNameProblem(name: string): string | undefined {
  if (name === "bytes" || hfRendererDir(name) !== undefined) return undefined;
  return `unknown renderer "${name}": expected bytes or hf:DIR (a folder holding a Hugging Face model's tokenizer.json and tokenizer_config.json)`;
}

/** A config's renderer field: a renderer name (default DEFAULT_RENDERER), refused as rendererNameProblem says; the
 * description says what the renderer is for where the field is (demonstrations, a Tinker run, a tinker: policy). */
export function rendererNameField(description: string) {
  return z
    .string()
    .default(DEFAULT_RENDERER)
    .superRefine((name, context) => {
      const problem = rendererNameProblem(name);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem, input: name });
    })
    .describe(description);
}
