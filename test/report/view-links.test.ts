// The view's addresses as report.html and show print them: a run's name, budget labels and filters travel in the
// query string (a name with slashes, spaces, "&" or "#" comes back as it was), under the view's address with or
// without a trailing slash.
import { describe, expect, it } from "vitest";
import { compareUrl, episodeUrl, runsUrl, runUrl } from "../../src/report/view-links.js";

describe("view links", () => {
  it("keeps every character of a run's name and a budget label", () => {
    const run = "seed-1/vault/grpo full/announced&x#y";
    const url = new URL(runUrl("http://127.0.0.1:8400/", run, { budget: "25%", outcome: "failure" }));
    expect(url.pathname).toBe("/run");
    expect(url.searchParams.get("id")).toBe(run);
    expect(url.searchParams.get("budget")).toBe("25%");
    expect(url.searchParams.get("outcome")).toBe("failure");
    expect(url.hash).toBe("#episodes");
    expect(runUrl("http://h:1", run)).toBe(`http://h:1/run?id=${encodeURIComponent(run).replace(/%20/g, "+")}`);
  });

  it("writes the pages' addresses", () => {
    expect(runsUrl("")).toBe("/");
    expect(runsUrl("http://h:1/", ["a", "b/c"])).toBe("http://h:1/?run=a&run=b%2Fc");
    expect(episodeUrl("", { run: "r", task: 3, budget: "1.5x", sample: 0 }, { outcome: "failure" })).toBe(
      "/episode?run=r&task=3&budget=1.5x&sample=0&in-outcome=failure",
    );
    expect(compareUrl("", ["a", "b"], { budget: "50%", task: "t-1", sample: 2 })).toBe(
      "/compare?run=a&run=b&budget=50%25&task=t-1&sample=2",
    );
  });
});
