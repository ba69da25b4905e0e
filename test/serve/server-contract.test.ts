// `budgetrl serve` through the contract every OpenAI-compatible server the openai policy talks to must keep
// (test/policies/openai/server-contract.ts), over real HTTP on a free loopback port.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveCheckpoint } from "../../src/serve/serve.js";
import { openaiServerContract } from "../policies/openai/server-contract.js";
import { freshCheckpoint } from "./helpers.js";

openaiServerContract("budgetrl serve", async () => {
  const ckpt = await freshCheckpoint(join(mkdtempSync(join(tmpdir(), "budgetrl-serve-contract-")), "ckpt"), {
    maxNewTokens: 16,
    history: "segments",
  });
  const serving = await serveCheckpoint({ ckpt, port: 0, name: "tiny-contract" });
  return { url: serving.url, model: serving.name, close: () => serving.close() };
});
