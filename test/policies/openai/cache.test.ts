import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheKey, cacheSummary, clearResponseCache, defaultCacheDir, openResponseCache } from "../../../src/policies/openai/cache.js";

describe("response cache", () => {
  it("keys on (model, request, sample, seed), with request keys in any order", () => {
    const request = { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 1 };
    const key = cacheKey("m", request, 0, 5);
    expect(cacheKey("m", { temperature: 1, messages: [{ content: "hi", role: "user" }], model: "m" }, 0, 5)).toBe(key);
    expect(new Set([key, cacheKey("m", request, 1, 5), cacheKey("m", request, 0, 6), cacheKey("other", request, 0, 5), cacheKey("m", { ...request, temperature: 0.5 }, 0, 5)]).size).toBe(5);
  });

  it("stores and reads choices across openings, and clears all or one model's", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "budgetrl-cache-")), "nested");
    const cache = openResponseCache(dir);
    const choice = { message: { role: "assistant" as const, content: "Up" }, logprobs: [-0.1, -2.5e-7], tokens: [3, 4] };
    cache.put("k1", "a", choice);
    cache.put("k2", "b", choice);
    cache.put("k3", "b", choice);
    expect(cache.get("missing")).toBeUndefined();
    cache.close();
    const reopened = openResponseCache(dir);
    expect(reopened.get("k1")).toEqual(choice);
    expect(cacheSummary(dir)).toEqual([
      { model: "a", responses: 1 },
      { model: "b", responses: 2 },
    ]);
    expect(clearResponseCache(dir, "b")).toBe(2);
    expect(reopened.get("k2")).toBeUndefined();
    expect(clearResponseCache(dir)).toBe(1);
    expect(reopened.get("k1")).toBeUndefined();
    reopened.close();
    expect(clearResponseCache(join(dir, "never-made"))).toBe(0);
  });

  it("finds its folder from the environment", () => {
    expect(defaultCacheDir({ BUDGETRL_CACHE_DIR: "/x/cache" })).toBe("/x/cache");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/xdg" })).toBe("/xdg/budgetrl");
    expect(defaultCacheDir({})).toMatch(/\.cache\/budgetrl$/);
  });
});
