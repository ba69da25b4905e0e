// Exports are written whole or not at all, on both store backends.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { DataError, StoppedError } from "../../src/core/errors.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { exportRunJsonl } from "../../src/store/export.js";
import { openStore } from "../../src/store/open.js";
import { describeEachStore, type StoreBackendCase } from "../helpers/services.js";

const dir = mkdtempSync(join(tmpdir(), "budgetrl-export-"));

async function storedRun(backend: StoreBackendCase, name: string): Promise<string> {
  const db = await backend.fresh(name);
  await evaluate({ env: "sokoban", policy: "noisy-oracle:0.3", tasks: 40, samples: 4, bootstrap: 0, db, run: "r" });
  return db;
}

describeEachStore("exportRunJsonl", (backend) => {
  it("leaves an existing file byte-identical when the export fails half-way, and no temporary file behind", async () => {
    const db = await storedRun(backend, "damaged");
    const out = join(dir, `damaged-${backend.name}.jsonl`);
    writeFileSync(out, "precious earlier export\n");
    const store = await openStore(db);
    // A late episode's stored turn is no longer JSON: the export fails after writing many lines.
    await store.sql.run(
      "UPDATE turns SET observation = '{oops' WHERE task_index = 39 AND sample = 3 AND turn_index = 1",
    );
    await expect(exportRunJsonl(store, "r", out)).rejects.toThrow(DataError);
    await expect(exportRunJsonl(store, "r", out)).rejects.toThrow(
      /run "r" in .* holds a damaged episode \(after 159 readable ones\)/,
    );
    await store.close();
    expect(readFileSync(out, "utf8")).toBe("precious earlier export\n");
    expect(readdirSync(dir).filter((name) => name.includes(".tmp"))).toEqual([]);
  });

  it("replaces the file only when complete, and a stop signal leaves it as it was", async () => {
    const db = await storedRun(backend, "whole");
    const out = join(dir, `whole-${backend.name}.jsonl`);
    writeFileSync(out, "old\n");
    const store = await openStore(db, { readonly: true });
    const controller = new AbortController();
    controller.abort();
    await expect(exportRunJsonl(store, "r", out, { signal: controller.signal })).rejects.toBeInstanceOf(StoppedError);
    expect(readFileSync(out, "utf8")).toBe("old\n");
    expect(await exportRunJsonl(store, "r", out)).toBe(160);
    await store.close();
    expect(readFileSync(out, "utf8").split("\n")).toHaveLength(161);
    expect(readdirSync(dir).filter((name) => name.includes(".tmp"))).toEqual([]);
  });
});
