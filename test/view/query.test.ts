// The view's query strings, read once into typed values: a list filter (with or without the prefix an episode page
// carries it under), an episode's key, pages and sorts; a value that cannot be one is a 400 naming the parameter.
import { describe, expect, it } from "vitest";
import { filterParams } from "../../src/report/view-links.js";
import { HttpError } from "../../src/serve/errors.js";
import { episodeKeyParam, filterParam, pageParam, sortParam } from "../../src/view/query.js";

const params = (text: string): URLSearchParams => new URLSearchParams(text);

function refusal(read: () => unknown): HttpError {
  try {
    read();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("the view's query parameters", () => {
  it("reads a filter back from the parameters view-links writes, empty form fields left out", () => {
    const filter = { budget: "1.5x", sample: 2, task: 10, outcome: "invalid" } as const;
    for (const prefix of ["", "in-"])
      expect(filterParam(new URLSearchParams(filterParams(filter, prefix)), prefix)).toEqual(filter);
    expect(filterParam(params("budget=&sample=&task=&outcome="))).toEqual({});
    expect(filterParam(params("in-budget=25%25"), "in-")).toEqual({ budget: "25%" });
  });

  it("refuses what cannot be a filter, naming the parameter", () => {
    expect(refusal(() => filterParam(params("sample=-1"))).message).toMatch(/"sample": expected a whole number/);
    expect(refusal(() => filterParam(params("task=1e3"))).status).toBe(400);
    expect(refusal(() => filterParam(params("outcome=lucky"))).message).toMatch(
      /"outcome": expected one of success, failure, error, invalid, truncated/,
    );
  });

  it("reads an episode's key, all three parts required", () => {
    expect(episodeKeyParam(params("task=3&budget=50%25&sample=0"))).toEqual([3, "50%", 0]);
    expect(refusal(() => episodeKeyParam(params("task=3&sample=0"))).message).toMatch(/"budget": missing/);
    expect(refusal(() => episodeKeyParam(params("budget=1&sample=0"))).message).toMatch(/"task": missing/);
  });

  it("reads pages from 1 and sorts ascending unless asked", () => {
    expect(pageParam(params(""), "page")).toBe(1);
    expect(pageParam(params("page=4"), "page")).toBe(4);
    expect(refusal(() => pageParam(params("page=0"), "page")).status).toBe(400);
    expect(sortParam(params(""), "tsort", "index")).toEqual({ column: "index", direction: "asc" });
    expect(sortParam(params("tsort=50%25&tsort-dir=desc"), "tsort", "index")).toEqual({
      column: "50%",
      direction: "desc",
    });
  });
});
