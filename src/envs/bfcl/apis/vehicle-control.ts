// Upstream BFCL's VehicleControlAPI (module vehicle_control): engine, fuel, doors, climate, lights, brakes,
// cruise control, navigation, tires and a few conversions. Same public methods, parameters, result dicts,
// error texts and state changes as the Python class (including its quirks: adjustClimateControl reports the
// temperature as given, setCruiseControl stores the distance before rejecting a speed). Outside temperatures and
// speeds come from the instance's own CPython-exact Random(random_seed).
//
// Public state (upstream vars() order): fuelLevel, batteryVoltage, engine_state, remainingUnlockedDoors,
// doorStatus, acTemperature, fanSpeed, acMode, humidityLevel, headLightStatus, parkingBrakeStatus,
// brakePedalStatus, distanceToNextVehicle, cruiseStatus, destination, frontLeftTirePressure,
// frontRightTirePressure, rearLeftTirePressure, rearRightTirePressure, long_context.
import { pyIterate, sequenceHas } from "../py/containers.js";
import { pyFloatOf } from "../py/convert.js";
import { pyBinary, pyCompare } from "../py/operators.js";
import { createPyRandom, type PyRandom } from "../py/random.js";
import { pyJoin } from "../py/str-methods.js";
import { pyGetItem, pySetItem, pyShallowCopy } from "../py/subscript.js";
import { pyDictOf, pyEquals, pyFloat, pyTruthy, type PyDict, type PyValue } from "../py/value.js";
import { defineBfclClass, type BfclConstants, type BfclInstance } from "./backend-class.js";
import {
  argument,
  errorResult,
  expectDict,
  expectInt,
  longContextConstant,
  moduleDefaults,
  noArgumentMethod,
  oneArgumentMethod,
  scenarioValue,
} from "./backend-support.js";

export interface VehicleControl extends BfclInstance {
  fuelLevel: PyValue;
  batteryVoltage: PyValue;
  engine_state: PyValue;
  remainingUnlockedDoors: PyValue;
  doorStatus: PyDict;
  acTemperature: PyValue;
  fanSpeed: PyValue;
  acMode: PyValue;
  humidityLevel: PyValue;
  headLightStatus: PyValue;
  parkingBrakeStatus: PyValue;
  brakePedalStatus: PyValue;
  distanceToNextVehicle: PyValue;
  cruiseStatus: PyValue;
  destination: PyValue;
  frontLeftTirePressure: PyValue;
  frontRightTirePressure: PyValue;
  rearLeftTirePressure: PyValue;
  rearRightTirePressure: PyValue;
  long_context: boolean;
  /** Upstream private attributes _parkingBrakeForce, _slopeAngle, _brakePedalForce, _random. */
  parkingBrakeForce: PyValue;
  slopeAngle: PyValue;
  brakePedalForce: PyValue;
  random: PyRandom;
  readonly constants: BfclConstants;
}

const MAX_FUEL_LEVEL = 50;
const MIN_FUEL_LEVEL = pyFloat(0.0);
const MILE_PER_GALLON = pyFloat(20.0);

/** Distances in km between zipcodes, either direction. */
const DISTANCES: readonly (readonly [string, string, number])[] = [
  ["83214", "74532", 750],
  ["56108", "62947", 320],
  ["71354", "83462", 450],
  ["47329", "52013", 290],
  ["69238", "51479", 630],
  ["94016", "83214", 980],
  ["94016", "94704", 600],
  ["94704", "08540", 2550],
  ["94016", "08540", 1950],
  ["62947", "47329", 1053],
  ["94016", "62947", 780],
  ["74532", "94016", 880],
];

const ZIPCODES: ReadonlyMap<string, string> = new Map([
  ["Rivermist", "83214"],
  ["Stonebrook", "74532"],
  ["Maplecrest", "56108"],
  ["Silverpine", "62947"],
  ["Shadowridge", "71354"],
  ["Sunset Valley", "83462"],
  ["Oakendale", "47329"],
  ["Willowbend", "52013"],
  ["Crescent Hollow", "69238"],
  ["Autumnville", "51479"],
  ["San Francisco", "94016"],
]);

function loadScenario(self: VehicleControl, scenario: PyDict, longContext: boolean): void {
  const defaults = moduleDefaults(self.constants, "vehicle_control");
  const get = (key: string, defaultKey: string = key): PyValue => scenarioValue(scenario, key, defaults, defaultKey);
  self.random = createPyRandom(expectInt(get("random_seed"), "VehicleControlAPI.random_seed"));
  self.fuelLevel = get("fuelLevel");
  self.batteryVoltage = get("batteryVoltage");
  self.engine_state = get("engineState", "engine_state");
  self.remainingUnlockedDoors = get("remainingUnlockedDoors");
  self.doorStatus = expectDict(get("doorStatus"), "VehicleControlAPI.doorStatus");
  self.remainingUnlockedDoors = 4 - [...self.doorStatus.values()].filter((status) => pyEquals(status, "locked")).length;
  self.acTemperature = get("acTemperature");
  self.fanSpeed = get("fanSpeed");
  self.acMode = get("acMode");
  self.humidityLevel = get("humidityLevel");
  self.headLightStatus = get("headLightStatus");
  self.parkingBrakeStatus = get("parkingBrakeStatus");
  self.parkingBrakeForce = get("parkingBrakeForce", "_parkingBrakeForce");
  self.slopeAngle = get("slopeAngle", "_slopeAngle");
  self.brakePedalStatus = get("brakePedalStatus");
  self.brakePedalForce = get("brakePedalForce");
  self.distanceToNextVehicle = get("distanceToNextVehicle");
  self.cruiseStatus = get("cruiseStatus");
  self.destination = get("destination");
  self.frontLeftTirePressure = get("frontLeftTirePressure");
  self.frontRightTirePressure = get("frontRightTirePressure");
  self.rearLeftTirePressure = get("rearLeftTirePressure");
  self.rearRightTirePressure = get("rearRightTirePressure");
  self.long_context = longContext;
}

function startEngine(self: VehicleControl, ignitionMode: PyValue): PyValue {
  if (pyEquals(ignitionMode, "STOP")) self.engine_state = "stopped";
  if (pyCompare(">", self.remainingUnlockedDoors, 0)) {
    const unlocked = [...self.doorStatus].filter(([, status]) => pyEquals(status, "unlocked")).map(([door]) => door);
    return errorResult(
      `All doors must be locked before starting the engine. Here are the unlocked doors: ${pyJoin(", ", unlocked)}`,
    );
  }
  if (!pyEquals(self.brakePedalStatus, "pressed"))
    return errorResult("Brake pedal needs to be pressed when starting the engine.");
  if (!pyEquals(self.brakePedalForce, pyFloat(1000.0)))
    return errorResult("Must press the brake fully before starting the engine.");
  if (pyCompare("<", self.fuelLevel, MIN_FUEL_LEVEL)) return errorResult("Fuel tank is empty.");
  if (!pyEquals(ignitionMode, "START")) return errorResult("Invalid ignition mode.");
  self.engine_state = "running";
  return pyDictOf({ engineState: self.engine_state, fuelLevel: self.fuelLevel, batteryVoltage: self.batteryVoltage });
}

function fillFuelTank(self: VehicleControl, fuelAmount: PyValue): PyValue {
  if (pyCompare("<", fuelAmount, 0)) return errorResult("Fuel amount cannot be negative.");
  if (pyCompare(">", pyBinary("+", self.fuelLevel, fuelAmount), MAX_FUEL_LEVEL))
    return errorResult("Cannot fill gas above the tank capacity.");
  if (pyCompare("<", pyBinary("+", self.fuelLevel, fuelAmount), MIN_FUEL_LEVEL))
    return errorResult("Fuel tank is empty. Min fuel level is 0 gallons.");
  self.fuelLevel = pyBinary("+", self.fuelLevel, fuelAmount, true);
  return pyDictOf({ fuelLevel: self.fuelLevel });
}

function lockDoors(self: VehicleControl, unlock: PyValue, doors: PyValue): PyValue {
  const target = pyTruthy(unlock) ? "unlocked" : "locked";
  for (const door of pyIterate(doors)) {
    if (pyEquals(pyGetItem(self.doorStatus, door), target)) continue;
    pySetItem(self.doorStatus, door, target);
    self.remainingUnlockedDoors = pyBinary(target === "unlocked" ? "+" : "-", self.remainingUnlockedDoors, 1, true);
  }
  return pyDictOf({ lockStatus: target, remainingUnlockedDoors: self.remainingUnlockedDoors });
}

function adjustClimateControl(
  self: VehicleControl,
  temperature: PyValue,
  unit: PyValue,
  fanSpeed: PyValue,
  mode: PyValue,
): PyValue {
  if (!(pyCompare("<=", 0, fanSpeed) && pyCompare("<=", fanSpeed, 100)))
    return errorResult("Fan speed must be between 0 and 100.");
  self.acTemperature = temperature;
  if (pyEquals(unit, "fahrenheit"))
    self.acTemperature = pyBinary("/", pyBinary("*", pyBinary("-", temperature, 32), 5), 9);
  self.fanSpeed = fanSpeed;
  self.acMode = mode;
  return pyDictOf({ currentACTemperature: temperature, climateMode: mode, humidityLevel: self.humidityLevel });
}

function outsideTemperatureFromGoogle(self: VehicleControl): PyValue {
  const temperature = pyFloat(self.random.uniform(-10.0, 40.0));
  if (!self.long_context) return pyDictOf({ outsideTemperature: temperature });
  // Upstream writes the reading into the module's weather dict and returns that dict.
  const weather = pyShallowCopy(
    expectDict(longContextConstant(self.constants, "LONG_WEATHER_EXTENSION"), "LONG_WEATHER_EXTENSION"),
  );
  pySetItem(weather, "outsideTemperature", temperature);
  return weather;
}

function displayCarStatus(self: VehicleControl, option: PyValue): PyValue {
  const status: PyDict = new Map();
  if (self.long_context) status.set("metadata", longContextConstant(self.constants, "CAR_STATUS_METADATA_EXTENSION"));
  const is = (name: string): boolean => pyEquals(option, name);
  if (is("fuel")) status.set("fuelLevel", self.fuelLevel);
  else if (is("battery")) status.set("batteryVoltage", self.batteryVoltage);
  else if (is("doors")) status.set("doorStatus", self.doorStatus);
  else if (is("climate")) {
    status.set("currentACTemperature", self.acTemperature).set("fanSpeed", self.fanSpeed);
    status.set("climateMode", self.acMode).set("humidityLevel", self.humidityLevel);
  } else if (is("headlights")) status.set("headlightStatus", self.headLightStatus);
  else if (is("parkingBrake")) {
    status
      .set("parkingBrakeStatus", self.parkingBrakeStatus)
      .set("parkingBrakeForce", self.parkingBrakeForce)
      .set("slopeAngle", self.slopeAngle);
  } else if (is("brakePedal"))
    status.set("brakePedalStatus", self.brakePedalStatus).set("brakePedalForce", self.brakePedalForce);
  else if (is("engine")) status.set("engineState", self.engine_state);
  else status.set("error", "Invalid option");
  return status;
}

function activateParkingBrake(self: VehicleControl, mode: PyValue): PyValue {
  if (!sequenceHas(["engage", "release"], mode)) return errorResult("Invalid mode");
  const engage = pyEquals(mode, "engage");
  self.parkingBrakeStatus = engage ? "engaged" : "released";
  self.parkingBrakeForce = pyFloat(engage ? 500.0 : 0.0);
  self.slopeAngle = pyFloat(10.0);
  const result: PyDict = new Map();
  if (self.long_context)
    result.set("parkingBrakeInstruction", longContextConstant(self.constants, "PARKING_BRAKE_INSTRUCTION"));
  return result
    .set("parkingBrakeStatus", self.parkingBrakeStatus)
    .set("_parkingBrakeForce", self.parkingBrakeForce)
    .set("_slopeAngle", self.slopeAngle);
}

function pressBrakePedal(self: VehicleControl, pedalPosition: PyValue): PyValue {
  if (!(pyCompare("<=", 0, pedalPosition) && pyCompare("<=", pedalPosition, 1)))
    return errorResult("Pedal position must be between 0 and 1.");
  if (pyEquals(pedalPosition, 0)) return releaseBrakePedal(self);
  const force = pyBinary("*", pedalPosition, 1000);
  self.brakePedalStatus = "pressed";
  self.brakePedalForce = force;
  return pyDictOf({ brakePedalStatus: "pressed", brakePedalForce: pyFloatOf(force) });
}

function releaseBrakePedal(self: VehicleControl): PyValue {
  self.brakePedalStatus = "released";
  self.brakePedalForce = pyFloat(0.0);
  return pyDictOf({ brakePedalStatus: "released", brakePedalForce: pyFloat(0.0) });
}

function setCruiseControl(
  self: VehicleControl,
  speedValue: PyValue,
  activate: PyValue,
  distanceValue: PyValue,
): PyValue {
  const distance = pyFloatOf(distanceValue);
  const speed = pyFloatOf(speedValue);
  if (pyEquals(self.engine_state, "stopped"))
    return errorResult("Start the engine before activating the cruise control.");
  self.distanceToNextVehicle = distance;
  if (pyTruthy(activate)) {
    if (speed.value < 0 || speed.value > 120 || !pyEquals(pyBinary("%", speed, 5), 0))
      return errorResult("Invalid speed");
    self.cruiseStatus = "active";
  } else self.cruiseStatus = "inactive";
  return pyDictOf({ cruiseStatus: self.cruiseStatus, currentSpeed: speed, distanceToNextVehicle: distance });
}

function estimateDistance(self: VehicleControl, cityA: PyValue, cityB: PyValue): PyValue {
  const known = DISTANCES.find(
    ([a, b]) => (pyEquals(cityA, a) && pyEquals(cityB, b)) || (pyEquals(cityA, b) && pyEquals(cityB, a)),
  );
  const result =
    known === undefined ? errorResult("distance not found in database.") : pyDictOf({ distance: pyFloat(known[2]) });
  if (self.long_context) result.set("intermediaryCities", longContextConstant(self.constants, "INTERMEDIARY_CITIES"));
  return result;
}

function checkTirePressure(self: VehicleControl): PyValue {
  const pressures = [
    self.frontLeftTirePressure,
    self.frontRightTirePressure,
    self.rearLeftTirePressure,
    self.rearRightTirePressure,
  ];
  const average = pyBinary(
    "/",
    pressures.slice(1).reduce((sum, pressure) => pyBinary("+", sum, pressure), pressures[0] as PyValue),
    4,
  );
  const healthy = pyCompare("<=", 30, average) && pyCompare("<=", average, 35);
  return pyDictOf({
    frontLeftTirePressure: self.frontLeftTirePressure,
    frontRightTirePressure: self.frontRightTirePressure,
    rearLeftTirePressure: self.rearLeftTirePressure,
    rearRightTirePressure: self.rearRightTirePressure,
    healthy_tire_pressure: healthy,
    car_info: self.long_context ? longContextConstant(self.constants, "CAR_STATUS_METADATA_EXTENSION") : new Map(),
  });
}

/** Method specs for the many one-argument and no-argument methods. */
const one = oneArgumentMethod<VehicleControl>;
const none = noArgumentMethod<VehicleControl>;

export const vehicleControlClass = defineBfclClass<VehicleControl>({
  className: "VehicleControlAPI",
  moduleName: "vehicle_control",
  stateless: false,
  create(constants) {
    const self: VehicleControl = {
      fuelLevel: null,
      batteryVoltage: null,
      engine_state: null,
      remainingUnlockedDoors: 4,
      doorStatus: new Map(),
      acTemperature: null,
      fanSpeed: null,
      acMode: null,
      humidityLevel: null,
      headLightStatus: null,
      parkingBrakeStatus: null,
      brakePedalStatus: null,
      distanceToNextVehicle: null,
      cruiseStatus: null,
      destination: null,
      frontLeftTirePressure: null,
      frontRightTirePressure: null,
      rearLeftTirePressure: null,
      rearRightTirePressure: null,
      long_context: false,
      parkingBrakeForce: null,
      slopeAngle: null,
      brakePedalForce: null,
      random: createPyRandom(0),
      constants,
      loadScenario: (scenario, longContext) => loadScenario(self, scenario, longContext),
      publicState: () => [
        ["fuelLevel", self.fuelLevel],
        ["batteryVoltage", self.batteryVoltage],
        ["engine_state", self.engine_state],
        ["remainingUnlockedDoors", self.remainingUnlockedDoors],
        ["doorStatus", self.doorStatus],
        ["acTemperature", self.acTemperature],
        ["fanSpeed", self.fanSpeed],
        ["acMode", self.acMode],
        ["humidityLevel", self.humidityLevel],
        ["headLightStatus", self.headLightStatus],
        ["parkingBrakeStatus", self.parkingBrakeStatus],
        ["brakePedalStatus", self.brakePedalStatus],
        ["distanceToNextVehicle", self.distanceToNextVehicle],
        ["cruiseStatus", self.cruiseStatus],
        ["destination", self.destination],
        ["frontLeftTirePressure", self.frontLeftTirePressure],
        ["frontRightTirePressure", self.frontRightTirePressure],
        ["rearLeftTirePressure", self.rearLeftTirePressure],
        ["rearRightTirePressure", self.rearRightTirePressure],
        ["long_context", self.long_context],
      ],
    };
    return self;
  },
  methods: {
    startEngine: one("ignitionMode", startEngine),
    fillFuelTank: one("fuelAmount", fillFuelTank),
    lockDoors: {
      params: [{ name: "unlock" }, { name: "door" }],
      run: (self, args) => lockDoors(self, argument(args, "unlock"), argument(args, "door")),
    },
    adjustClimateControl: {
      params: [
        { name: "temperature" },
        { name: "unit", default: "celsius" },
        { name: "fanSpeed", default: 50 },
        { name: "mode", default: "auto" },
      ],
      run: (self, args) =>
        adjustClimateControl(
          self,
          argument(args, "temperature"),
          argument(args, "unit"),
          argument(args, "fanSpeed"),
          argument(args, "mode"),
        ),
    },
    get_outside_temperature_from_google: none(outsideTemperatureFromGoogle),
    get_outside_temperature_from_weather_com: none(() => pyDictOf({ error: 404 })),
    setHeadlights: one("mode", (self, mode) => {
      if (!sequenceHas(["on", "off", "auto"], mode)) return errorResult("Invalid headlight mode.");
      self.headLightStatus = pyEquals(mode, "on") ? "on" : "off";
      return pyDictOf({ headlightStatus: self.headLightStatus });
    }),
    displayCarStatus: one("option", displayCarStatus),
    activateParkingBrake: one("mode", activateParkingBrake),
    pressBrakePedal: one("pedalPosition", pressBrakePedal),
    releaseBrakePedal: none(releaseBrakePedal),
    setCruiseControl: {
      params: [{ name: "speed" }, { name: "activate" }, { name: "distanceToNextVehicle" }],
      run: (self, args) =>
        setCruiseControl(
          self,
          argument(args, "speed"),
          argument(args, "activate"),
          argument(args, "distanceToNextVehicle"),
        ),
    },
    get_current_speed: none((self) => pyDictOf({ currentSpeed: pyFloat(self.random.uniform(0.0, 120.0)) })),
    display_log: one("messages", (_, messages) => pyDictOf({ log: messages })),
    estimate_drive_feasibility_by_mileage: one("distance", (self, distance) =>
      pyDictOf({ canDrive: !pyCompare("<", pyBinary("*", self.fuelLevel, MILE_PER_GALLON), distance) }),
    ),
    liter_to_gallon: one("liter", (_, liter) => pyDictOf({ gallon: pyBinary("*", liter, pyFloat(0.264172)) })),
    gallon_to_liter: one("gallon", (_, gallon) => pyDictOf({ liter: pyBinary("*", gallon, pyFloat(3.78541)) })),
    estimate_distance: {
      params: [{ name: "cityA" }, { name: "cityB" }],
      run: (self, args) => estimateDistance(self, argument(args, "cityA"), argument(args, "cityB")),
    },
    get_zipcode_based_on_city: one("city", (_, city) =>
      pyDictOf({ zipcode: (typeof city === "string" ? ZIPCODES.get(city) : undefined) ?? "00000" }),
    ),
    set_navigation: one("destination", (self, destination) => {
      self.destination = destination;
      return pyDictOf({ status: pyBinary("+", "Navigating to ", destination) });
    }),
    check_tire_pressure: none(checkTirePressure),
    find_nearest_tire_shop: none(() => pyDictOf({ shopLocation: "456 Oakwood Avenue, Rivermist, 83214" })),
  },
});
