// The server contract run against the loopback reference model; `budgetrl serve` runs the same suite (test/serve).
import { openaiServerContract } from "./server-contract.js";
import { startFakeServer } from "./fake-server.js";
import { referenceModel } from "./reference-server.js";

openaiServerContract("loopback reference model", async () => {
  const server = await startFakeServer(referenceModel);
  return { url: server.url, model: "reference", close: () => server.close() };
});
