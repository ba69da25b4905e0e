import { describe, expect, it } from "vitest";
import { createTaskCache } from "../../../src/envs/shared/task-cache.js";

describe("createTaskCache", () => {
  it("compiles a task once, whether looked up by object or by an equal copy", () => {
    let compiles = 0;
    const cache = createTaskCache(
      (task: { text: string }) => task.text,
      (task) => ({ compiled: task.text, serial: ++compiles }),
    );
    const task = { text: "a" };
    expect(cache.get(task)).toBe(cache.get(task));
    expect(cache.get({ text: "a" }).serial).toBe(1);
    expect(cache.get({ text: "b" }).serial).toBe(2);
    expect(compiles).toBe(2);
  });

  it("keeps at most `limit` tasks by key, evicting the least recently used", () => {
    let compiles = 0;
    const cache = createTaskCache(
      (task: { text: string }) => task.text,
      () => ++compiles,
      2,
    );
    cache.get({ text: "a" });
    cache.get({ text: "b" });
    cache.get({ text: "a" });
    cache.get({ text: "c" });
    expect(compiles).toBe(3);
    cache.get({ text: "a" });
    expect(compiles).toBe(3);
    cache.get({ text: "b" });
    expect(compiles).toBe(4);
  });

  it("accepts compiled forms made elsewhere", () => {
    const cache = createTaskCache(
      (task: { text: string }) => task.text,
      () => "compiled here",
    );
    const task = { text: "x" };
    cache.put(task, "made by the generator");
    expect(cache.get(task)).toBe("made by the generator");
    expect(cache.get({ text: "x" })).toBe("made by the generator");
  });
});
