// Worker entry used only when the package runs from its TypeScript source (vitest, `npx tsx`): loads
// worker.ts through tsx, a devDependency. The compiled package starts dist/nn/worker.js directly.
import { tsImport } from "tsx/esm/api";

await tsImport("./worker.ts", import.meta.url);
