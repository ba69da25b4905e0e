// The study (`budgetrl reproduce`), the package entry "budgetrl/study": `reproduce()` runs the resumable stages
// (held-out tasks, ranges, then per seed SFT, RL runs and evaluation, then the report) into a folder; its config,
// presets, seeds and envs. Left out: the
// plan (folder and run names) and the stages one by one, which reproduce() and the CLI use.
export {
  parseStudyConfig,
  HELD_OUT_KINDS,
  PRESET_SEEDS,
  PRESETS,
  studyConfig,
  studyConfigSchema,
  STUDY_ENVS,
  STUDY_PRESETS,
  VARIANT_SLUGS,
  type StudyChoice,
  type StudyConfig,
  type StudyConfigInput,
  type StudyEnv,
  type StudyEnvName,
  type StudyPreset,
  type VariantSlug,
} from "./config.js";
export { reproduce, type ReproduceOptions, type ReproduceResult } from "./reproduce.js";
export { STAGES, type StageEvents, type StageName } from "./stages.js";
