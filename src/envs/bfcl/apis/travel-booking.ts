// Upstream BFCL's TravelAPI (module travel_booking): authentication, credit cards, flight costs and bookings,
// invoices, insurance, exchange rates and traveler checks. Same public methods, parameters, result dicts, error
// texts and state changes as the Python class; tokens, card ids, balances, booking, transaction and insurance
// ids come from the instance's own CPython-exact Random(random_seed), drawn in upstream's order.
//
// Two deliberate differences, both about upstream reading process-wide state:
// - "today" (for the traveler's age) is injected (default TRAVEL_TODAY) instead of read from the clock;
// - long-context credit cards and bookings are copied into the instance, where upstream shares the module's
//   dicts between all instances of the process (so a booking on an extension card leaks into later entries).
//
// Public state (upstream vars() order): credit_card_list, booking_record, access_token, token_type,
// token_expires_in, token_scope, user_first_name, user_last_name, budget_limit, long_context.
import { pyRound } from "../py/arith.js";
import { assertHashable, dictFindKey, dictHas, pyContains, pyIterate, sequenceHas } from "../py/containers.js";
import { pyFloatOf, pyIntOf } from "../py/convert.js";
import { naiveDateTime, pyStrptime, type NaiveDateTime } from "../py/datetime.js";
import { PyException } from "../py/errors.js";
import { pyRepr, pyStr } from "../py/format.js";
import { pyBinary, pyCompare } from "../py/operators.js";
import { createPyRandom, type PyRandom } from "../py/random.js";
import { pyStartsWith, strReceiver } from "../py/str-methods.js";
import { pyDictGet, pyGetItem, pySetItem } from "../py/subscript.js";
import { decimalValue, isPyDigit } from "../py/unicode-digits.js";
import {
  pyDeepCopy,
  pyDictOf,
  pyEquals,
  pyFloat,
  type PyDict,
  type PyFloat,
  type PyKey,
  type PyValue,
} from "../py/value.js";
import {
  defineBfclClass,
  type BfclClass,
  type BfclConstants,
  type BfclInstance,
  type MethodSpec,
} from "./backend-class.js";
import {
  argument,
  errorResult,
  expectDict,
  expectInt,
  longContextConstant,
  moduleDefaults,
  scenarioValue,
} from "./backend-support.js";
import { AIRPORT_BY_CITY, ALL_AIRPORTS, BASE_COSTS, EXCHANGE_RATES, ROUTES } from "./travel-booking/tables.js";

export interface TravelApi extends BfclInstance {
  credit_card_list: PyDict;
  booking_record: PyDict;
  access_token: PyValue;
  token_type: PyValue;
  token_expires_in: PyValue;
  token_scope: PyValue;
  user_first_name: PyValue;
  user_last_name: PyValue;
  budget_limit: PyValue;
  long_context: boolean;
  random: PyRandom;
  /** Upstream _flight_cost_lookup: "from|to|class|date" -> {"cost": cost}, refreshed by get_flight_cost. */
  flightCostLookup: Map<string, PyFloat>;
  readonly today: NaiveDateTime;
  readonly constants: BfclConstants;
}

/** The date verify_traveler_information computes ages against (upstream reads the clock). */
export const TRAVEL_TODAY: NaiveDateTime = naiveDateTime(2024, 9, 1);

/** str(valid_classes) in book_flight. Upstream prints a set, whose order depends on the process's hash seed. */
const VALID_CLASSES_TEXT = "{'economy', 'business', 'first'}";
const CLASS_FACTORS: ReadonlyMap<string, number> = new Map([
  ["economy", 1],
  ["business", 2],
  ["first", 5],
]);

function loadScenario(self: TravelApi, scenario: PyDict, longContext: boolean): void {
  const defaults = moduleDefaults(self.constants, "travel_booking");
  self.random = createPyRandom(expectInt(scenarioValue(scenario, "random_seed", defaults), "TravelAPI.random_seed"));
  self.credit_card_list = expectDict(
    scenarioValue(scenario, "credit_card_list", defaults),
    "TravelAPI.credit_card_list",
  );
  self.booking_record = expectDict(scenarioValue(scenario, "booking_record", defaults), "TravelAPI.booking_record");
  self.access_token = scenarioValue(scenario, "access_token", defaults);
  self.token_type = scenarioValue(scenario, "token_type", defaults);
  self.token_expires_in = scenarioValue(scenario, "token_expires_in", defaults);
  self.token_scope = scenarioValue(scenario, "token_scope", defaults);
  self.user_first_name = scenarioValue(scenario, "user_first_name", defaults);
  self.user_last_name = scenarioValue(scenario, "user_last_name", defaults);
  self.budget_limit = scenarioValue(scenario, "budget_limit", defaults);
  self.long_context = longContext;
  if (longContext) {
    mergeMissing(
      self.credit_card_list,
      longContextConstant(self.constants, "CREDIT_CARD_EXTENSION"),
      "CREDIT_CARD_EXTENSION",
    );
    mergeMissing(
      self.booking_record,
      longContextConstant(self.constants, "BOOKING_RECORD_EXTENSION"),
      "BOOKING_RECORD_EXTENSION",
    );
  }
}

/** Add the entries of a long-context constant that the scenario does not already have. */
function mergeMissing(target: PyDict, extension: PyValue, name: string): void {
  for (const [key, value] of expectDict(extension, name)) if (!target.has(key)) target.set(key, pyDeepCopy(value));
}

/** The token checks most methods start with: expired, then a wrong token. */
function tokenProblem(self: TravelApi, accessToken: PyValue): string | undefined {
  if (pyEquals(self.token_expires_in, 0)) return "Token expired";
  if (!pyEquals(accessToken, self.access_token)) return "Invalid access token";
  return undefined;
}

function authenticate(self: TravelApi, grantType: PyValue, firstName: PyValue, lastName: PyValue): PyValue {
  self.token_expires_in = 2;
  self.access_token = String(self.random.randint(100000, 999999));
  self.token_type = "Bearer";
  self.token_scope = grantType;
  self.user_first_name = firstName;
  self.user_last_name = lastName;
  return pyDictOf({ expires_in: 2, access_token: self.access_token, token_type: "Bearer", scope: grantType });
}

function registerCreditCard(self: TravelApi, args: ReadonlyMap<string, PyValue>): PyValue {
  if (self.token_expires_in === null) return errorResult("Token not initialized");
  const problem = tokenProblem(self, argument(args, "access_token"));
  if (problem !== undefined) return errorResult(problem);
  const cardNumber = argument(args, "card_number");
  if (dictHas(self.credit_card_list, cardNumber)) return errorResult("Card already registered");
  const cardId = String(self.random.randint(100000000000, 999999999999));
  self.credit_card_list.set(
    cardId,
    pyDictOf({
      card_number: cardNumber,
      expiration_date: argument(args, "expiration_date"),
      cardholder_name: argument(args, "cardholder_name"),
      card_verification_number: argument(args, "card_verification_number"),
      balance: self.random.randint(10000, 99999),
    }),
  );
  return pyDictOf({ card_id: cardId });
}

/**
 * The parity of sum(int(char) for char in travel_date if char.isdigit()): only parity matters upstream, and
 * digits strings inside a list may be longer than a JS number holds exactly.
 */
function dateDigitSumIsEven(travelDate: PyValue): boolean {
  let odd = false;
  for (const item of pyIterate(travelDate)) {
    const chars = Array.from(strReceiver(item, "isdigit"));
    if (chars.length === 0 || !chars.every(isPyDigit)) continue;
    pyIntOf(chars.join("")); // int() rejects isdigit characters that are not decimal (superscripts, ...)
    odd = odd !== ((decimalValue(chars[chars.length - 1] as string) as number) % 2 === 1);
  }
  return !odd;
}

function getFlightCost(
  self: TravelApi,
  travelFrom: PyValue,
  travelTo: PyValue,
  travelDate: PyValue,
  travelClass: PyValue,
): PyValue {
  assertHashable(travelFrom);
  assertHashable(travelTo);
  const baseCost =
    typeof travelFrom === "string" && typeof travelTo === "string"
      ? BASE_COSTS.get(`${travelFrom}-${travelTo}`)
      : undefined;
  if (baseCost === undefined) throw new PyException("ValueError", "No available route for the given airports.");
  const factor = typeof travelClass === "string" ? CLASS_FACTORS.get(travelClass) : undefined;
  if (factor === undefined)
    throw new PyException("ValueError", "Invalid travel class. Options are: economy, business, first.");
  const multiplier = dateDigitSumIsEven(travelDate) ? 2 : 1;
  const suffix = `${pyStr(travelClass)}|${pyStr(travelDate)}`;
  const costs: PyValue[] = [];
  self.flightCostLookup = new Map();
  const routes = self.long_context ? ROUTES : [{ from: travelFrom as string, to: travelTo as string, baseCost }];
  for (const route of routes) {
    const cost = pyFloat(route.baseCost * factor * multiplier);
    self.flightCostLookup.set(`${route.from}|${route.to}|${suffix}`, cost);
    costs.push(cost);
  }
  return pyDictOf({ travel_cost_list: costs });
}

function getCreditCardBalance(self: TravelApi, accessToken: PyValue, cardId: PyValue): PyValue {
  const problem = tokenProblem(self, accessToken);
  if (problem !== undefined) return errorResult(problem);
  if (!dictHas(self.credit_card_list, cardId)) {
    return errorResult(
      `Card not registered. Here are a list of card_id's: ${pyRepr([...self.credit_card_list.keys()])}`,
    );
  }
  return pyDictOf({ card_balance: pyGetItem(pyGetItem(self.credit_card_list, cardId), "balance") });
}

function bookFlight(self: TravelApi, args: ReadonlyMap<string, PyValue>): PyValue {
  const failed = (text: string): PyDict => pyDictOf({ booking_status: false, error: text });
  const problem = tokenProblem(self, argument(args, "access_token"));
  if (problem !== undefined) return failed(problem);
  const cardId = argument(args, "card_id");
  const [travelDate, travelFrom, travelTo, travelClass] = [
    "travel_date",
    "travel_from",
    "travel_to",
    "travel_class",
  ].map((name) => argument(args, name)) as [PyValue, PyValue, PyValue, PyValue];
  if (!dictHas(self.credit_card_list, cardId)) return failed("Card not registered");
  const card = pyGetItem(self.credit_card_list, cardId);
  if (!pyContains(card, "balance")) return failed("Balance not found");
  if (!sequenceHas(ALL_AIRPORTS, travelFrom)) return failed(`Invalid departure airport code: ${pyStr(travelFrom)}`);
  if (!sequenceHas(ALL_AIRPORTS, travelTo)) return failed(`Invalid destination airport code: ${pyStr(travelTo)}`);
  const caughtValueError = catchValueError(() => pyStrptime(travelDate, "%Y-%m-%d"));
  if (caughtValueError !== undefined) return failed("Invalid date format. Use YYYY-MM-DD.");
  assertHashable(travelClass);
  if (typeof travelClass !== "string" || !CLASS_FACTORS.has(travelClass))
    return failed(`Invalid travel class. Must be one of ${VALID_CLASSES_TEXT}`);
  const costError = catchValueError(() => getFlightCost(self, travelFrom, travelTo, travelDate, travelClass));
  if (costError !== undefined) return failed(costError);
  const travelCost = self.flightCostLookup.get(
    `${pyStr(travelFrom)}|${pyStr(travelTo)}|${travelClass}|${pyStr(travelDate)}`,
  );
  if (travelCost === undefined) return failed("No available route for the given parameters");
  if (pyCompare("<", pyGetItem(card, "balance"), travelCost)) return failed("Insufficient funds");
  if (self.budget_limit !== null && pyCompare("<", pyGetItem(card, "balance"), self.budget_limit))
    return failed("Balance is less than budget limit");
  pySetItem(card, "balance", pyBinary("-", pyGetItem(card, "balance"), travelCost, true));
  const bookingId = String(self.random.randint(1000000, 9999999));
  const transactionId = String(self.random.randint(10000000, 99999999));
  self.booking_record.set(
    bookingId,
    pyDictOf({
      card_id: cardId,
      travel_date: travelDate,
      travel_from: travelFrom,
      travel_to: travelTo,
      travel_class: travelClass,
      travel_cost: travelCost,
      transaction_id: transactionId,
    }),
  );
  const history = self.long_context ? self.booking_record : new Map();
  return pyDictOf({
    booking_id: bookingId,
    transaction_id: transactionId,
    booking_status: true,
    booking_history: history,
  });
}

/** Run `body`; a ValueError it raises becomes its text (upstream's `except ValueError`), others propagate. */
function catchValueError(body: () => unknown): string | undefined {
  try {
    body();
    return undefined;
  } catch (caught) {
    if (caught instanceof PyException && caught.pyType === "ValueError") return caught.text;
    throw caught;
  }
}

function retrieveInvoice(self: TravelApi, accessToken: PyValue, bookingId: PyValue): PyValue {
  const problem = tokenProblem(self, accessToken);
  if (problem !== undefined) return errorResult(problem);
  if (!dictHas(self.booking_record, bookingId)) return errorResult("Booking not found");
  const booking = pyGetItem(self.booking_record, bookingId);
  const invoice: PyDict = new Map([["booking_id", bookingId]]);
  for (const field of ["travel_date", "travel_from", "travel_to", "travel_class", "travel_cost", "transaction_id"]) {
    invoice.set(field, pyGetItem(booking, field));
  }
  return pyDictOf({ invoice });
}

function cancelBooking(self: TravelApi, accessToken: PyValue, bookingId: PyValue): PyValue {
  const problem = tokenProblem(self, accessToken);
  if (problem !== undefined) return pyDictOf({ cancel_status: false, error: problem });
  if (!dictHas(self.booking_record, bookingId)) return pyDictOf({ cancel_status: false, error: "Booking not found" });
  const booking = pyGetItem(self.booking_record, bookingId);
  const card = pyGetItem(self.credit_card_list, pyGetItem(booking, "card_id"));
  const travelCost = pyGetItem(booking, "travel_cost");
  pySetItem(card, "balance", pyBinary("+", pyGetItem(card, "balance"), travelCost, true));
  self.booking_record.delete(dictFindKey(self.booking_record, bookingId) as PyKey);
  return pyDictOf({ cancel_status: true });
}

function computeExchangeRate(baseCurrency: PyValue, targetCurrency: PyValue, value: PyValue): PyValue {
  for (const [base, target, rate] of EXCHANGE_RATES) {
    if (pyEquals(baseCurrency, base) && pyEquals(targetCurrency, target))
      return pyDictOf({ exchanged_value: pyFloatOf(pyBinary("*", value, rate)) });
    if (pyEquals(baseCurrency, target) && pyEquals(targetCurrency, base)) {
      return pyDictOf({ exchanged_value: pyRound(pyBinary("/", value, rate) as PyFloat, 2) });
    }
  }
  throw new PyException("ValueError", "No available exchange rate for the given currencies.");
}

function verifyTraveler(
  self: TravelApi,
  firstName: PyValue,
  lastName: PyValue,
  dateOfBirth: PyValue,
  passport: PyValue,
): PyValue {
  const failed = (text: string): PyDict => pyDictOf({ verification_status: false, verification_failure: text });
  if (!pyEquals(self.user_first_name, firstName) || !pyEquals(self.user_last_name, lastName)) {
    const expected = `${pyStr(self.user_first_name)} ${pyStr(self.user_last_name)}`;
    return failed(
      `Cannot book flight information for another user.Expected ${expected}, got ${pyStr(firstName)} ${pyStr(lastName)}`,
    );
  }
  let birth: NaiveDateTime | undefined;
  const invalid = catchValueError(() => (birth = pyStrptime(dateOfBirth, "%Y-%m-%d")));
  if (invalid !== undefined || birth === undefined)
    return failed("Invalid date of birth format. Please use YYYY-MM-DD.");
  const beforeBirthday =
    self.today.month < birth.month || (self.today.month === birth.month && self.today.day < birth.day);
  if (self.today.year - birth.year - (beforeBirthday ? 1 : 0) < 18)
    return failed("Traveler must be at least 18 years old.");
  if (!pyStartsWith(passport, "US")) return failed("Passport must be issued by the United States.");
  return pyDictOf({ verification_status: true });
}

function setBudgetLimit(self: TravelApi, accessToken: PyValue, budgetLimit: PyValue): PyValue {
  const problem = tokenProblem(self, accessToken);
  if (problem !== undefined) return errorResult(problem);
  self.budget_limit = pyFloatOf(budgetLimit);
  return pyDictOf({ budget_limit: self.budget_limit });
}

function purchaseInsurance(self: TravelApi, args: ReadonlyMap<string, PyValue>): PyValue {
  const failed = (text: string): PyDict => pyDictOf({ insurance_status: false, error: text });
  const problem = tokenProblem(self, argument(args, "access_token"));
  if (problem !== undefined) return failed(problem);
  const [bookingId, cost, cardId] = ["booking_id", "insurance_cost", "card_id"].map((name) => argument(args, name)) as [
    PyValue,
    PyValue,
    PyValue,
  ];
  if (self.budget_limit !== null && pyCompare("<", self.budget_limit, cost)) return failed("Exceeded budget limit");
  if (!dictHas(self.booking_record, bookingId)) return failed("Booking not found");
  if (!dictHas(self.credit_card_list, cardId)) return failed("Credit card not registered");
  const card = pyGetItem(self.credit_card_list, cardId);
  pySetItem(card, "balance", pyBinary("-", pyGetItem(card, "balance"), cost, true));
  return pyDictOf({ insurance_id: String(self.random.randint(100000000, 999999999)), insurance_status: true });
}

function bookingHistory(self: TravelApi, accessToken: PyValue): PyValue {
  const problem = tokenProblem(self, accessToken);
  return problem !== undefined ? errorResult(problem) : pyDictOf({ booking_history: pyDeepCopy(self.booking_record) });
}

function contactCustomerSupport(self: TravelApi, bookingId: PyValue): PyValue {
  return dictHas(self.booking_record, bookingId)
    ? pyDictOf({
        customer_support_message:
          "Thank you for contacting customer support. Your message has been received and we will get back to you shortly.",
      })
    : errorResult("Booking not found");
}

type Method = MethodSpec<TravelApi>;
const params = (...names: string[]): Method["params"] => names.map((name) => ({ name }));
const arg = argument;

function methods(): Readonly<Record<string, Method>> {
  return {
    authenticate_travel: {
      params: params("client_id", "client_secret", "refresh_token", "grant_type", "user_first_name", "user_last_name"),
      run: (self, args) =>
        authenticate(self, arg(args, "grant_type"), arg(args, "user_first_name"), arg(args, "user_last_name")),
    },
    travel_get_login_status: {
      params: [],
      run: (self) => pyDictOf({ status: !(self.token_expires_in === null || pyEquals(self.token_expires_in, 0)) }),
    },
    get_budget_fiscal_year: {
      params: [
        { name: "lastModifiedAfter", default: null },
        { name: "includeRemoved", default: null },
      ],
      run: () => pyDictOf({ budget_fiscal_year: "2018" }),
    },
    register_credit_card: {
      params: params("access_token", "card_number", "expiration_date", "cardholder_name", "card_verification_number"),
      run: registerCreditCard,
    },
    get_flight_cost: {
      params: params("travel_from", "travel_to", "travel_date", "travel_class"),
      run: (self, args) =>
        getFlightCost(
          self,
          arg(args, "travel_from"),
          arg(args, "travel_to"),
          arg(args, "travel_date"),
          arg(args, "travel_class"),
        ),
    },
    get_credit_card_balance: {
      params: params("access_token", "card_id"),
      run: (self, args) => getCreditCardBalance(self, arg(args, "access_token"), arg(args, "card_id")),
    },
    book_flight: {
      params: params("access_token", "card_id", "travel_date", "travel_from", "travel_to", "travel_class"),
      run: bookFlight,
    },
    retrieve_invoice: {
      params: [
        { name: "access_token" },
        { name: "booking_id", default: null },
        { name: "insurance_id", default: null },
      ],
      run: (self, args) => retrieveInvoice(self, arg(args, "access_token"), arg(args, "booking_id")),
    },
    get_booking_history: {
      params: params("access_token"),
      run: (self, args) => bookingHistory(self, arg(args, "access_token")),
    },
    list_all_airports: { params: [], run: () => [...ALL_AIRPORTS] },
    cancel_booking: {
      params: params("access_token", "booking_id"),
      run: (self, args) => cancelBooking(self, arg(args, "access_token"), arg(args, "booking_id")),
    },
    compute_exchange_rate: {
      params: params("base_currency", "target_currency", "value"),
      run: (_, args) =>
        computeExchangeRate(arg(args, "base_currency"), arg(args, "target_currency"), arg(args, "value")),
    },
    verify_traveler_information: {
      params: params("first_name", "last_name", "date_of_birth", "passport_number"),
      run: (self, args) =>
        verifyTraveler(
          self,
          arg(args, "first_name"),
          arg(args, "last_name"),
          arg(args, "date_of_birth"),
          arg(args, "passport_number"),
        ),
    },
    set_budget_limit: {
      params: params("access_token", "budget_limit"),
      run: (self, args) => setBudgetLimit(self, arg(args, "access_token"), arg(args, "budget_limit")),
    },
    get_nearest_airport_by_city: {
      params: params("location"),
      run: (_, args) => pyDictOf({ nearest_airport: pyDictGet(AIRPORT_BY_CITY, arg(args, "location"), "Unknown") }),
    },
    purchase_insurance: {
      params: params("access_token", "insurance_type", "booking_id", "insurance_cost", "card_id"),
      run: purchaseInsurance,
    },
    contact_customer_support: {
      params: params("booking_id", "message"),
      run: (self, args) => contactCustomerSupport(self, arg(args, "booking_id")),
    },
    get_all_credit_cards: { params: [], run: (self) => pyDictOf({ credit_card_list: self.credit_card_list }) },
  };
}

/** TravelAPI with "today" fixed to `today` (for verify_traveler_information's age check). */
export function makeTravelBookingClass(today: NaiveDateTime): BfclClass<TravelApi> {
  return defineBfclClass<TravelApi>({
    className: "TravelAPI",
    moduleName: "travel_booking",
    stateless: false,
    create(constants) {
      const self: TravelApi = {
        credit_card_list: new Map(),
        booking_record: new Map(),
        access_token: null,
        token_type: null,
        token_expires_in: null,
        token_scope: null,
        user_first_name: null,
        user_last_name: null,
        budget_limit: null,
        long_context: false,
        random: createPyRandom(0),
        flightCostLookup: new Map(),
        today,
        constants,
        loadScenario: (scenario, longContext) => loadScenario(self, scenario, longContext),
        publicState: () => [
          ["credit_card_list", self.credit_card_list],
          ["booking_record", self.booking_record],
          ["access_token", self.access_token],
          ["token_type", self.token_type],
          ["token_expires_in", self.token_expires_in],
          ["token_scope", self.token_scope],
          ["user_first_name", self.user_first_name],
          ["user_last_name", self.user_last_name],
          ["budget_limit", self.budget_limit],
          ["long_context", self.long_context],
        ],
      };
      return self;
    },
    methods: methods(),
  });
}

export const travelBookingClass = makeTravelBookingClass(TRAVEL_TODAY);
