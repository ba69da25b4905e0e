// After tsc: make the CLI entry executable so `npx budgetrl` works from a fresh clone.
import { chmodSync, existsSync } from "node:fs";

const cli = new URL("../dist/cli/main.js", import.meta.url);
if (existsSync(cli)) chmodSync(cli, 0o755);
