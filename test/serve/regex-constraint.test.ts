// guided_regex: replies drawn under the masks match the pattern whole (checked by JavaScript's RegExp), multi-byte
// characters included, and the shortest reply fits the tightest budget exactly.
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/rng.js";
import { machineConstraint, shortestText } from "../../src/serve/byte-machine.js";
import { regexMachine, wholeMatch } from "../../src/serve/regex-constraint.js";
import { byteVocabulary } from "../../src/serve/vocabulary.js";
import { walkConstraint } from "./walk.js";

const vocabulary = byteVocabulary(260);

describe("guided_regex", () => {
  for (const pattern of ["[A-Z]{3}-\\d{2,4}(x|yy)?", "(é|日本|😀)+ok", "^(?!0)\\d{1,3}(,\\d{3})*$", "[^\\n]{0,5}\\."])
    it(`writes whole matches of /${pattern}/`, () => {
      const check = new RegExp(`^(?:${pattern})$`, "u");
      const machine = regexMachine(wholeMatch(pattern));
      for (let seed = 0; seed < 15; seed++) {
        const walked = walkConstraint(machineConstraint(machine, vocabulary), 40, createRng(seed), 0.5);
        expect(walked.ended, walked.text).toBe(true);
        expect(walked.text).toMatch(check);
      }
      const shortest = shortestText(machine);
      const tight = walkConstraint(machineConstraint(machine, vocabulary), shortest, createRng(1), 0.5);
      expect(tight.ended).toBe(true);
      expect(tight.tokens).toBe(shortest);
    });
});
