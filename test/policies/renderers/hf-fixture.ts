// The hand-made tokenizer folder of the hf renderer's tests (fixtures/hf-tiny): a byte-level BPE whose ids 0-255 are
// the bytes (GPT-2's byte-to-character table), two merges ("Ġ t" -> 256, "h e" -> 257) and two special tokens
// (<|im_start|> 258, <|im_end|> 259), 260 ids in all, and a ChatML template (Qwen's, without its default system
// prompt and tools), eos_token <|im_end|>. Copies of it with other files, a template that writes tools, and a short
// episode; shared by hf-renderer.test.ts and hf-renderer-train.test.ts.
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistantMessage, systemMessage, userMessage } from "../../../src/core/message.js";
import type { EpisodeMessages } from "../../../src/policies/tiny/context.js";

export const FIXTURE = join(import.meta.dirname, "fixtures", "hf-tiny");
export const START = 258;
export const END = 259;
export const NL = 10;
/** The ids of text without "the" or " t" in it: its bytes. */
export const bytes = (text: string): number[] => [...Buffer.from(text, "utf8")];

const copies = mkdtempSync(join(tmpdir(), "budgetrl-hf-fixture-"));

/** A copy of the fixture folder with extra files (or without tokenizer.json). */
export function fixtureCopy(name: string, extra: Readonly<Record<string, string>>, withTokenizer = true): string {
  const folder = mkdtempSync(join(copies, `${name}-`));
  if (withTokenizer) copyFileSync(join(FIXTURE, "tokenizer.json"), join(folder, "tokenizer.json"));
  copyFileSync(join(FIXTURE, "tokenizer_config.json"), join(folder, "tokenizer_config.json"));
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(folder, file), text);
  return folder;
}

/** A template that writes the tools (tojson), tool calls as <tool_call>NAME</tool_call>, and enable_thinking=false. */
export const TOOLS_TEMPLATE = [
  '{%- if tools %}{{- "<|im_start|>system\\n" }}{%- for tool in tools %}{{- tool | tojson }}{{- "\\n" }}{%- endfor %}{{- "<|im_end|>\\n" }}{%- endif %}',
  '{%- for message in messages %}{{- "<|im_start|>" + message.role + "\\n" + message.content }}',
  '{%- if message.tool_calls %}{%- for call in message.tool_calls %}{{- "<tool_call>" + call.function.name + "</tool_call>" }}{%- endfor %}{%- endif %}',
  '{{- "<|im_end|>\\n" }}{%- endfor %}',
  '{%- if add_generation_prompt %}{{- "<|im_start|>assistant\\n" }}{%- if enable_thinking is defined and enable_thinking is false %}{{- "<think></think>" }}{%- endif %}{%- endif %}',
].join("");

export const system = systemMessage("Be brief.");
export const episode: EpisodeMessages = {
  preamble: [system],
  turns: [
    { observation: [userMessage("Say the end")], action: assistantMessage("the end") },
    { observation: [userMessage("ok")], action: assistantMessage("done") },
  ],
};
