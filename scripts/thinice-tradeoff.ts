// The thin ice budget trade-off table (src/envs/thinice/tradeoff.ts) on a config's distinct generated maps, and
// the share of the oracle's turns that depend on the budget (decisions.ts):
//   npx tsx scripts/thinice-tradeoff.ts [tasks=1000] [option=value ...]     e.g. q=0.3 band=1
import { thinIceConfigSchema } from "../src/envs/thinice/config.js";
import { dependentShare } from "../src/envs/thinice/decisions.js";
import { distinctMaps, formatTradeoff, measureTradeoff, MULTIPLE_LABELS } from "../src/envs/thinice/tradeoff.js";
import { parseOptions } from "../src/core/options.js";

const args = process.argv.slice(2);
const count = args[0] !== undefined && !args[0].includes("=") ? Number(args.shift()) : 1000;
const options = Object.fromEntries(args.map((arg) => arg.split("=", 2) as [string, string]));
const config = parseOptions("thinice", thinIceConfigSchema, options);
console.log(`thinice ${JSON.stringify(config)}`);
console.log(formatTradeoff(measureTradeoff(config, count)));
const shares = dependentShare(distinctMaps(config, count).maps, config.q);
console.log(
  `budget-dependent turns of the oracle's episodes: ${shares.map((share, j) => `${MULTIPLE_LABELS[j]} ${(100 * share).toFixed(1)}%`).join(", ")}`,
);
