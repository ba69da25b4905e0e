// TravelAPI against upstream: every public method, happy paths and error paths, result strings and state as
// CPython produced them (fixtures/travel-booking.ts), the injected "today", long-context isolation, the func docs.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTravelBookingClass, travelBookingClass } from "../../../../src/envs/bfcl/apis/travel-booking.js";
import { createInstanceSet } from "../../../../src/envs/bfcl/apis/instance-set.js";
import { naiveDateTime } from "../../../../src/envs/bfcl/py/datetime.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import type { PyDict } from "../../../../src/envs/bfcl/py/value.js";
import { BUNDLED_BFCL_DATA_DIR } from "../../../../src/envs/bfcl/load/bundled-data.js";
import { BASE_CONFIG, SCENARIOS } from "./fixtures/travel-booking.js";
import {
  calledNames,
  expectMatchesFuncDocs,
  loadedInstance,
  playScenario,
  runCall,
  stateText,
} from "./scenario-player.js";

const VERIFY =
  "verify_traveler_information(first_name='Ada', last_name='Lovelace', date_of_birth='2006-09-02', passport_number='US1')";

describe("TravelAPI", () => {
  for (const scenario of SCENARIOS) {
    it(`reproduces upstream on scenario ${scenario.name}`, () =>
      playScenario(travelBookingClass, BASE_CONFIG, scenario));
  }

  it("has scenarios calling every public method", () => {
    expect(calledNames(SCENARIOS)).toEqual(new Set(Object.keys(travelBookingClass.methods)));
  });

  it("computes ages against the injected today (upstream reads the clock)", () => {
    const before = loadedInstance(travelBookingClass, BASE_CONFIG, {});
    expect(runCall(before, VERIFY)).toBe(
      '{"verification_status": false, "verification_failure": "Traveler must be at least 18 years old."}',
    );
    const later = loadedInstance(makeTravelBookingClass(naiveDateTime(2024, 9, 2)), BASE_CONFIG, {});
    expect(runCall(later, VERIFY)).toBe('{"verification_status": true}');
  });

  it("copies long-context cards into each instance instead of sharing them (upstream leaks across instances)", () => {
    const book =
      "book_flight(access_token='251675', card_id='9000', travel_date='2024-12-24', travel_from='LHR', travel_to='CDG', travel_class='economy')";
    const first = loadedInstance(travelBookingClass, BASE_CONFIG, { longContext: true });
    runCall(first, book);
    expect(runCall(first, "get_credit_card_balance(access_token='251675', card_id='9000')")).toBe(
      '{"card_balance": 5900.0}',
    );
    const second = loadedInstance(travelBookingClass, BASE_CONFIG, { longContext: true });
    expect(runCall(second, "get_credit_card_balance(access_token='251675', card_id='9000')")).toBe(
      '{"card_balance": 6000.0}',
    );
  });

  it("lets scenario cards win over long-context cards with the same id", () => {
    const set = loadedInstance(travelBookingClass, BASE_CONFIG, { longContext: true });
    expect(runCall(set, "get_credit_card_balance(access_token='251675', card_id='144756014165')")).toBe(
      '{"card_balance": 15000.0}',
    );
  });

  it("matches the func docs (names, parameters, required, defaults)", () => {
    expectMatchesFuncDocs(travelBookingClass);
  });

  it("falls back to default_state.json for every key the scenario leaves out", () => {
    const constants = {
      defaultState: parsePyJson(readFileSync(resolve(BUNDLED_BFCL_DATA_DIR, "default_state.json"), "utf8")) as PyDict,
      longContext: new Map(),
    };
    const set = createInstanceSet([travelBookingClass], new Map(), false, constants);
    // CPython: TravelAPI()._load_scenario({}) then json.dumps(public vars, sort_keys=True).
    expect(stateText(set, "TravelAPI")).toBe(
      '{"access_token": null, "booking_record": {}, "budget_limit": null, "credit_card_list": {}, "long_context": false, "token_expires_in": null, "token_scope": null, "token_type": null, "user_first_name": null, "user_last_name": null}',
    );
    expect(
      set.instances
        .get("TravelAPI")
        ?.publicState()
        .map(([name]) => name),
    ).toEqual([
      "credit_card_list",
      "booking_record",
      "access_token",
      "token_type",
      "token_expires_in",
      "token_scope",
      "user_first_name",
      "user_last_name",
      "budget_limit",
      "long_context",
    ]);
    // Random(141053): the first token upstream draws.
    expect(
      runCall(
        set,
        "authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read', user_first_name='A', user_last_name='B')",
      ),
    ).toBe('{"expires_in": 2, "access_token": "251675", "token_type": "Bearer", "scope": "read"}');
  });
});
