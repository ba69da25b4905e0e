import { sokoban } from "../../../src/envs/sokoban/index.js";
import { runEnvContract } from "../contract.js";

runEnvContract("sokoban", () => sokoban(), { deterministic: true });
runEnvContract("sokoban 7x7 with 2 boxes", () => sokoban({ width: 7, height: 7, boxes: 2 }), { deterministic: true, seeds: [0, 1, 2, 3], fuzzRuns: 2000 });
