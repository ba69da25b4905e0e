import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  cacheKey as keyOf,
  cacheSummary,
  clearResponseCache,
  defaultCacheDir,
  openResponseCache,
  requestIdentity,
} from "../../../src/policies/openai/cache.js";
import type { JsonObject } from "../../../src/core/json.js";

const cacheKey = (model: string, request: JsonObject, sample: number, seed: number): string =>
  keyOf(requestIdentity(model, request), sample, seed);

describe("response cache", () => {
  it("keys on (model, request, sample, seed), with request keys in any order", () => {
    const request = { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 1 };
    const key = cacheKey("m", request, 0, 5);
    expect(cacheKey("m", { temperature: 1, messages: [{ content: "hi", role: "user" }], model: "m" }, 0, 5)).toBe(key);
    expect(
      new Set([
        key,
        cacheKey("m", request, 1, 5),
        cacheKey("m", request, 0, 6),
        cacheKey("other", request, 0, 5),
        cacheKey("m", { ...request, temperature: 0.5 }, 0, 5),
      ]).size,
    ).toBe(5);
    // Tools are hashed once per list; equal lists in other arrays give the same key, other tools another.
    const tools = [{ type: "function", function: { name: "ls", parameters: { b: 1, a: 2 } } }];
    const withTools = cacheKey("m", { ...request, tools }, 0, 5);
    expect(cacheKey("m", { ...request, tools }, 0, 5)).toBe(withTools);
    expect(
      cacheKey(
        "m",
        { ...request, tools: [{ function: { parameters: { a: 2, b: 1 }, name: "ls" }, type: "function" }] },
        0,
        5,
      ),
    ).toBe(withTools);
    expect(
      cacheKey("m", { ...request, tools: [{ type: "function", function: { name: "cd", parameters: {} } }] }, 0, 5),
    ).not.toBe(withTools);
    expect(withTools).not.toBe(key);
    // Messages are part of the key one by one: moving text from one message to the next changes it.
    expect(
      cacheKey(
        "m",
        {
          model: "m",
          messages: [
            { role: "user", content: "ab" },
            { role: "user", content: "c" },
          ],
        },
        0,
        5,
      ),
    ).not.toBe(
      cacheKey(
        "m",
        {
          model: "m",
          messages: [
            { role: "user", content: "a" },
            { role: "user", content: "bc" },
          ],
        },
        0,
        5,
      ),
    );
  });

  it("stores and reads choices across openings, and clears all or one model's", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "budgetrl-cache-")), "nested");
    const cache = openResponseCache(dir);
    const choice = {
      message: { role: "assistant" as const, content: "Up" },
      logprobs: [-0.1, -2.5e-7],
      tokens: [3, 4],
    };
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
