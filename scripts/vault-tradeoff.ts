// The vault's budget trade-off table for docs/envs.md: exact success of the budget-aware oracle and of the oracle
// believing each other budget, at 1.25x, 1.5x, 2x and 3x each task's optimal length, over the distinct tasks of
// seeds 0..N-1 (src/envs/vault/tradeoff.ts), with the distribution of optimal lengths.
//
//   npx tsx scripts/vault-tradeoff.ts [N=300] [KEY=VALUE ...]      (KEY=VALUE: vault options, e.g. reliability=0.7)
import { parseOptions } from "../src/core/options.js";
import { vaultConfigSchema } from "../src/envs/vault/config.js";
import { vault } from "../src/envs/vault/index.js";
import { measureVaultTradeoff, vaultTradeoffMarkdown } from "../src/envs/vault/tradeoff.js";

function main(args: readonly string[]): void {
  const count = args[0] !== undefined && /^\d+$/.test(args[0]) ? Number(args[0]) : 300;
  const options = Object.fromEntries(
    args
      .filter((arg) => arg.includes("="))
      .map((arg) => [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]),
  );
  const config = parseOptions("vault", vaultConfigSchema, options);
  const env = vault(config);
  const table = measureVaultTradeoff(
    Array.from({ length: count }, (_, seed) => env.tasks.generate(seed)),
    config.reliability,
  );
  console.log(vaultTradeoffMarkdown(table));
  console.log(
    `\noptimal lengths (distinct tasks): ${table.lengths.map(([length, tasks]) => `${length}: ${tasks}`).join(", ")}`,
  );
}

main(process.argv.slice(2));
