// The renderers: how a model behind a service (or trained on its tokens) sees a conversation, and its tokens a
// reply. budgetrl's bytes, or a Hugging Face tokenizer and chat template read from a local folder (hf:DIR), tools and
// template options included. Shared by the Tinker adapter (src/tinker/), SFT on a renderer's layout (rl) and `budgetrl
// serve --renderer hf:DIR`; not part of the root entry (they load the Hugging Face packages), exported by
// "budgetrl/tinker". Left out: the template helpers (hf-template.ts, hf-extend.ts) and the name checks.
export { readHfFiles, type HfTokenizerFiles } from "./hf-files.js";
export {
  DEFAULT_HF_RENDERER_OPTIONS,
  TOOL_CALL_OPTIONS,
  type HfRendererOptions,
  type TemplateOptions,
  type ToolCallOption,
} from "./hf-options.js";
export { hfRenderer } from "./hf-renderer.js";
export { byteRenderer, openRenderer, type Renderer } from "./renderer.js";
export { RENDERER_NAMES } from "./renderer-names.js";
