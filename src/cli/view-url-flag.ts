// --view-url, the flag of the commands that summarise runs (`show`, `report`): the address of a running `budgetrl
// view` of the same store, so that what they print links to the runs' pages there (report/view-links.ts).
import { z } from "zod";

export const viewUrlField = z
  .url({ protocol: /^https?$/ })
  .optional()
  .describe("address of a running `budgetrl view` of this store (http://127.0.0.1:8400): link to its pages");
