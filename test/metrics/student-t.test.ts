// Student's t quantiles and CDF at integer and non-integer degrees of freedom, against scipy.stats.t (1.17) values.
import { describe, expect, it } from "vitest";
import { normalCdf, studentTCdf, studentTQuantile } from "../../src/metrics/student-t.js";

// [p, df, scipy.stats.t.ppf(p, df)]
const QUANTILES: [number, number, number][] = [
  [0.975, 1, 12.706204736174694],
  [0.975, 2, 4.302652729749462],
  [0.975, 2.5, 3.5746548420036817],
  [0.975, 5, 2.5705818356363146],
  [0.975, 10, 2.228138851986274],
  [0.975, 100, 1.9839715185235518],
  [0.975, 1e5, 1.9599877075346095],
  [0.8, 3, 0.9784723123633042],
  [0.99, 0.5, 1028.4910104716198],
  [0.6, 7.3, 0.2627568052507191],
];

describe("studentTQuantile", () => {
  it.each(QUANTILES)("p = %f, df = %f is scipy's %f", (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 8);
    expect(studentTQuantile(1 - p, df)).toBeCloseTo(-expected, 8);
  });

  it("is the normal's at infinite degrees of freedom, 0 at p = 0.5, NaN outside its domain", () => {
    expect(studentTQuantile(0.975, Infinity)).toBeCloseTo(1.959963984540054, 10);
    expect(studentTQuantile(0.5, 3)).toBe(0);
    expect(studentTQuantile(1, 3)).toBeNaN();
    expect(studentTQuantile(0.9, 0)).toBeNaN();
  });
});

describe("studentTCdf and normalCdf", () => {
  it("match scipy", () => {
    expect(studentTCdf(1.3, 4.2)).toBeCloseTo(0.8698212290621731, 12);
    expect(studentTCdf(-1.3, 4.2)).toBeCloseTo(1 - 0.8698212290621731, 12);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 12);
    expect(normalCdf(-3)).toBeCloseTo(0.0013498980316300933, 14);
  });
});
