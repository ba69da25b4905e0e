// RL: advantage estimators, budget schedules, the policy-gradient loss, the trainer backend (and the in-process
// one), SFT and the train loop.
export * from "./advantages/index.js";
export * from "./backend.js";
export * from "./loss/index.js";
export * from "./schedules/index.js";
export * from "./sequences.js";
export * from "./sft.js";
export * from "./sft-config.js";
export * from "./sft-run.js";
export * from "./tiny-backend.js";
export * from "./tinker/index.js";
export * from "./train.js";
export * from "./train-config.js";
export { updatePolicy, type UpdateOptions } from "./update.js";
