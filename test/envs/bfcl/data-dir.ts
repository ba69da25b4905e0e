// Where tests find the BFCL data: $BFCL_DATA_DIR, else ../shared/bfcl next to the repository.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

const repoRoot = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../..");

export const BFCL_DATA_DIR = process.env["BFCL_DATA_DIR"] ?? resolve(repoRoot, "../shared/bfcl");
export const HAS_BFCL_DATA = existsSync(resolve(BFCL_DATA_DIR, "possible_answer"));
