import { describe, expect, it } from "vitest";
import {
  effectFeedback,
  renderVault,
  VAULT_FORMAT_HINT,
  VAULT_INVALID_FEEDBACK,
  VAULT_OVER_FEEDBACK,
  vaultSystemPrompt,
} from "../../../src/envs/vault/render.js";
import type { Position } from "../../../src/envs/vault/rules.js";

const bytes = (text: string): number => Buffer.byteLength(text, "utf8");

describe("vault rendering", () => {
  it("shows the lock, the locks to go (this one included) and the hint or the code", () => {
    expect(renderVault(6, { lock: 2, known: false, end: null }, 7)).toBe("Lock 3/6, 4 to go: hint 7?");
    expect(renderVault(6, { lock: 2, known: true, end: null }, 2)).toBe("Lock 3/6, 4 to go: code 2");
    expect(renderVault(6, { lock: 5, known: true, end: null }, 0)).toBe("Lock 6/6, 1 to go: code 0");
    expect(renderVault(6, { lock: 6, known: true, end: "open" }, 0)).toBe("The vault is open (6/6 locks).");
    expect(renderVault(6, { lock: 2, known: false, end: "alarm" }, 0)).toBe("Alarm at lock 3/6: the vault is shut.");
  });

  it("says what each action did", () => {
    expect(effectFeedback({ kind: "opened", lock: 0, code: 7 })).toBe("7 opened lock 1.");
    expect(effectFeedback({ kind: "alarm", lock: 2, entered: 7, code: 2 })).toBe("7 is wrong (the code was 2): alarm!");
    expect(effectFeedback({ kind: "checked", lock: 2, hint: 7, code: 7 })).toBe("Checked: hint 7 was right.");
    expect(effectFeedback({ kind: "checked", lock: 2, hint: 7, code: 2 })).toBe("Checked: hint 7 was wrong.");
    expect(effectFeedback({ kind: "wasted", lock: 2 })).toBe("Wasted turn: lock 3's code was already known.");
    expect(VAULT_INVALID_FEEDBACK).toContain(VAULT_FORMAT_HINT);
    for (const action of ["check", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"])
      expect(VAULT_INVALID_FEEDBACK).toContain(action);
  });

  it("keeps every observation (feedback, newline, state line) of vaults up to 99 locks within 85 bytes", () => {
    let longest = 0;
    const observe = (line: string, locks: number, position: Position): void => {
      longest = Math.max(longest, bytes(`${line}\n${renderVault(locks, position, 9)}`));
    };
    for (const locks of [12, 99]) {
      for (let lock = 0; lock < locks; lock++) {
        const last = locks - 1;
        for (const known of [false, true]) {
          const live: Position = { lock, known, end: null };
          observe(VAULT_INVALID_FEEDBACK, locks, live);
          if (lock > 0) observe(effectFeedback({ kind: "opened", lock: lock - 1, code: 9 }), locks, live);
          observe(effectFeedback({ kind: "alarm", lock, entered: 9, code: 8 }), locks, { lock, known, end: "alarm" });
          observe(VAULT_OVER_FEEDBACK, locks, { lock, known, end: "alarm" });
        }
        observe(effectFeedback({ kind: "checked", lock, hint: 9, code: 8 }), locks, { lock, known: true, end: null });
        observe(effectFeedback({ kind: "wasted", lock }), locks, { lock, known: true, end: null });
        if (lock === last)
          for (const line of [effectFeedback({ kind: "opened", lock, code: 9 }), VAULT_OVER_FEEDBACK])
            observe(line, locks, { lock: locks, known: true, end: "open" });
      }
    }
    expect(longest).toBeLessThanOrEqual(85);
    // The largest default vault (12 locks): the invalid reply's feedback over the longest state line.
    expect(bytes(`${VAULT_INVALID_FEEDBACK}\n${renderVault(12, { lock: 9, known: false, end: null }, 7)}`)).toBe(83);
  });

  it("states the rules, the reliability and the answer format in the system prompt", () => {
    const prompt = vaultSystemPrompt(0.6);
    expect(prompt).toContain("right 60% of the time");
    expect(prompt).toContain("<answer>check</answer>");
    expect(vaultSystemPrompt(0.875)).toContain("87.5%");
  });
});
