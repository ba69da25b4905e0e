// The rollout engine, as the package exports it: the budget text the agent reads, guarded policy calls (turn
// timeout, stop signal, reply check), one episode, many episodes with seeds and concurrency. Left out: the
// planner, seeds and pool that the eval layer and the bullmq workers share.
export { budgetNote } from "./budget-text.js";
export { createPolicyCaller, PolicyTimeoutError, type PolicyCaller, type PolicyCallerOptions } from "./policy-call.js";
export { runEpisode, type EpisodeSpec, type RolloutOptions } from "./rollout.js";
export { runEpisodes, type EpisodeKey, type RunEpisodesOptions } from "./run-episodes.js";
