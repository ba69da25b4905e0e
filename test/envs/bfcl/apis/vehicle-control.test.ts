// VehicleControlAPI against upstream: every public method, happy paths and error paths, result strings and
// state as CPython produced them (fixtures/vehicle-control.ts), plus the func docs and default_state.json.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { vehicleControlClass } from "../../../../src/envs/bfcl/apis/vehicle-control.js";
import { createInstanceSet } from "../../../../src/envs/bfcl/apis/instance-set.js";
import { parsePyJson } from "../../../../src/envs/bfcl/py/json.js";
import type { PyDict } from "../../../../src/envs/bfcl/py/value.js";
import { BUNDLED_BFCL_DATA_DIR } from "../../../../src/envs/bfcl/load/bundled-data.js";
import { BASE_CONFIG, SCENARIOS } from "./fixtures/vehicle-control.js";
import {
  calledNames,
  expectMatchesFuncDocs,
  loadedInstance,
  playScenario,
  runCall,
  stateText,
} from "./scenario-player.js";

describe("VehicleControlAPI", () => {
  for (const scenario of SCENARIOS) {
    it(`reproduces upstream on scenario ${scenario.name}`, () =>
      playScenario(vehicleControlClass, BASE_CONFIG, scenario));
  }

  it("has scenarios calling every public method", () => {
    expect(calledNames(SCENARIOS)).toEqual(new Set(Object.keys(vehicleControlClass.methods)));
  });

  it("counts unlocked doors from doorStatus, ignoring the scenario's remainingUnlockedDoors", () => {
    const set = loadedInstance(vehicleControlClass, BASE_CONFIG, { overrides: '{"remainingUnlockedDoors": 0}' });
    expect(runCall(set, "lockDoors(unlock=False, door=[])")).toBe(
      '{"lockStatus": "locked", "remainingUnlockedDoors": 2}',
    );
  });

  it("leaves state changed by a call that then raises, as upstream does", () => {
    const set = loadedInstance(vehicleControlClass, BASE_CONFIG, {});
    expect(runCall(set, "lockDoors(unlock=False, door=['driver', 'trunk'])")).toBe("Error during execution: 'trunk'");
    expect(runCall(set, "displayCarStatus(option='doors')")).toBe(
      '{"doorStatus": {"driver": "locked", "passenger": "unlocked", "rear_left": "locked", "rear_right": "locked"}}',
    );
    expect(runCall(set, "set_navigation(destination=7)")).toBe(
      'Error during execution: can only concatenate str (not "int") to str',
    );
    expect(stateText(set, "VehicleControlAPI")).toContain('"destination": 7');
  });

  it("matches the func docs (names, parameters, required, defaults)", () => {
    expectMatchesFuncDocs(vehicleControlClass);
  });

  it("falls back to default_state.json for every key the scenario leaves out", () => {
    const constants = {
      defaultState: parsePyJson(readFileSync(resolve(BUNDLED_BFCL_DATA_DIR, "default_state.json"), "utf8")) as PyDict,
      longContext: new Map(),
    };
    const set = createInstanceSet([vehicleControlClass], new Map(), false, constants);
    // CPython: VehicleControlAPI()._load_scenario({}) then json.dumps(public vars, sort_keys=True).
    expect(stateText(set, "VehicleControlAPI")).toBe(
      '{"acMode": "auto", "acTemperature": 25.0, "batteryVoltage": 12.6, "brakePedalStatus": "released", "cruiseStatus": "inactive", "destination": "None", "distanceToNextVehicle": 50.0, "doorStatus": {"driver": "unlocked", "passenger": "unlocked", "rear_left": "unlocked", "rear_right": "unlocked"}, "engine_state": "stopped", "fanSpeed": 50, "frontLeftTirePressure": 32.0, "frontRightTirePressure": 32.0, "fuelLevel": 0.0, "headLightStatus": "off", "humidityLevel": 50.0, "long_context": false, "parkingBrakeStatus": "released", "rearLeftTirePressure": 30.0, "rearRightTirePressure": 30.0, "remainingUnlockedDoors": 4}',
    );
    expect(
      set.instances
        .get("VehicleControlAPI")
        ?.publicState()
        .map(([name]) => name),
    ).toEqual([
      "fuelLevel",
      "batteryVoltage",
      "engine_state",
      "remainingUnlockedDoors",
      "doorStatus",
      "acTemperature",
      "fanSpeed",
      "acMode",
      "humidityLevel",
      "headLightStatus",
      "parkingBrakeStatus",
      "brakePedalStatus",
      "distanceToNextVehicle",
      "cruiseStatus",
      "destination",
      "frontLeftTirePressure",
      "frontRightTirePressure",
      "rearLeftTirePressure",
      "rearRightTirePressure",
      "long_context",
    ]);
  });
});
