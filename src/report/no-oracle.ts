// The one sentence said where a run's env has no oracle (an OpenEnv server's env): what the analyses leave out for
// want of one, and what is still shown. The report's notes and `show --analyses` both say it.
import { OPENENV_PREFIX } from "../envs/openenv/config.js";

/** Whether runs of this env have no oracle to judge their moves by: an OpenEnv server's env. */
export const envHasNoOracle = (env: string): boolean => env.startsWith(OPENENV_PREFIX);

/** What is left out, and what is shown, for runs of an env without an oracle. */
export const noOracleNote = (env: string): string =>
  `no oracle for this env (${env}): step quality, recovery, the horizon by optimal length and the statistics' ranges need one, so they are left out; Pass@(K,T) and invalid replies are shown`;
