// The BFCL data that ships with budgetrl: data/bfcl/ at the package root (upstream's layout, Apache-2.0; see its
// PROVENANCE.md), the default data dir of the env, `bfcl run` and the bench. Found from this module's own place,
// four folders below the root both in the sources (src/envs/bfcl/load/, under tsx and vitest) and in the build
// (dist/envs/bfcl/load/), so it works from a clone and from an installed package alike.
import { fileURLToPath } from "node:url";

export const BUNDLED_BFCL_DATA_DIR: string = fileURLToPath(new URL("../../../../data/bfcl", import.meta.url));

/** The data dir to read: the one given, or the bundled copy when none is given (undefined or ""). */
export function resolveDataDir(dataDir: string | undefined): string {
  return dataDir === undefined || dataDir === "" ? BUNDLED_BFCL_DATA_DIR : dataDir;
}
