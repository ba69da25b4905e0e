// `budgetrl envs [ENV]`: the built-in environments and their options.
import { z } from "zod";
import { ENV_DEFINITIONS, ENV_NAMES, envConfigHelp } from "../envs/registry.js";
import { defineCommand } from "./command.js";

const schema = z.object({ env: z.string().optional().describe("show the options of this env") });

export const envsCommand = defineCommand({
  name: "envs",
  summary: "List the environments, or one environment's options (pass them to eval with --env-opt KEY=VALUE).",
  positionals: ["env"],
  schema,
  async run(options, io) {
    if (options.env !== undefined) {
      io.stdout(`${envConfigHelp(options.env)}\n`);
      return 0;
    }
    for (const name of ENV_NAMES) io.stdout(`${name.padEnd(12)} ${ENV_DEFINITIONS[name].summary}\n`);
    io.stdout(`\nOptions of one env: budgetrl envs ENV\n`);
    return 0;
  },
});
