// The TravelAPI tables: upstream's 153 routes in order, 23 airports, 23 cities, 10 exchange rates.
import { describe, expect, it } from "vitest";
import {
  AIRPORT_BY_CITY,
  ALL_AIRPORTS,
  BASE_COSTS,
  EXCHANGE_RATES,
  ROUTES,
} from "../../../../../src/envs/bfcl/apis/travel-booking/tables.js";

describe("travel tables", () => {
  it("hold upstream's routes in upstream's order, without duplicates", () => {
    expect(ROUTES).toHaveLength(153);
    expect(BASE_COSTS.size).toBe(153);
    expect(ROUTES[0]).toEqual({ from: "SFO", to: "LAX", baseCost: 200 });
    expect(ROUTES[152]).toEqual({ from: "OKD", to: "LAX", baseCost: 220 });
    expect(BASE_COSTS.get("JFK-PEK")).toBe(1000);
  });

  it("hold the airports, cities and rates", () => {
    expect(ALL_AIRPORTS).toHaveLength(23);
    expect(AIRPORT_BY_CITY.size).toBe(23);
    expect(AIRPORT_BY_CITY.get("Tokyo")).toBe("HND");
    expect(EXCHANGE_RATES.map(([, target]) => target)).toEqual([
      "RMB",
      "EUR",
      "JPY",
      "GBP",
      "CAD",
      "AUD",
      "INR",
      "RUB",
      "BRL",
      "MXN",
    ]);
  });
});
