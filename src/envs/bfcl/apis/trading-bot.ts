// Upstream BFCL's TradingBot (module trading_bot): a stock-trading account with orders, a watchlist and a
// transaction history. Same public methods, parameters, result dicts, error texts and state changes as the
// Python class; transaction timestamps come from the instance's own CPython-exact Random(random_seed), as
// upstream draws them, so ids and times match. No clock: "now" is upstream's fixed CURRENT_TIME.
//
// Public state (upstream vars() order): orders, account_info, authenticated, market_status, order_counter, stocks,
// watch_list, transaction_history, long_context.
import { dictHas, pyIterate, sequenceHas } from "../py/containers.js";
import { pyFloatOf, pyIntOf } from "../py/convert.js";
import {
  addSeconds,
  compareDateTimes,
  DATETIME_MAX,
  DATETIME_MIN,
  naiveDateTime,
  pyStrftime,
  pyStrptime,
} from "../py/datetime.js";
import { fromEllipsisMarker } from "../py/ellipsis.js";
import { PyException } from "../py/errors.js";
import { formatFixed } from "../py/format-spec.js";
import { pyRepr, pyStr } from "../py/format.js";
import { pyAbs, pyBinary, pyCompare } from "../py/operators.js";
import { createPyRandom, type PyRandom } from "../py/random.js";
import { pyFormatNamed, pyJoin, pyLower } from "../py/str-methods.js";
import { pyDictGet, pyGetItem, pySetItem, pyShallowCopy } from "../py/subscript.js";
import { pyDictOf, pyEquals, pyTruthy, type PyDict, type PyKey, type PyValue } from "../py/value.js";
import { defineBfclClass, type BfclConstants, type BfclInstance } from "./backend-class.js";
import {
  argument,
  errorResult,
  expectDict,
  expectInt,
  expectList,
  longContextConstant,
  moduleDefaults,
  noArgumentMethod,
  oneArgumentMethod,
  scenarioValue,
} from "./backend-support.js";

export interface TradingBot extends BfclInstance {
  orders: PyDict;
  account_info: PyDict;
  authenticated: PyValue;
  market_status: PyValue;
  order_counter: number;
  stocks: PyDict;
  watch_list: PyValue[];
  transaction_history: PyValue[];
  long_context: boolean;
  random: PyRandom;
  readonly constants: BfclConstants;
}

/** Upstream CURRENT_TIME: 2024-09-01 10:30. */
const CURRENT_TIME = naiveDateTime(2024, 9, 1, 10, 30);
const SECONDS_PER_DAY = 86_400;

const SYMBOLS_BY_NAME: PyDict = new Map<PyKey, PyValue>([
  ["Apple", "AAPL"],
  ["Google", "GOOG"],
  ["Tesla", "TSLA"],
  ["Microsoft", "MSFT"],
  ["Nvidia", "NVDA"],
  ["Zeta Corp", "ZETA"],
  ["Alpha Tech", "ALPH"],
  ["Omega Industries", "OMEG"],
  ["Quasar Ltd.", "QUAS"],
  ["Neptune Systems", "NEPT"],
  ["Synex Solutions", "SYNX"],
  ["Amazon", "AMZN"],
  ["Gorilla", "GORI"],
]);

function loadScenario(self: TradingBot, scenario: PyDict, longContext: boolean): void {
  const defaults = moduleDefaults(self.constants, "trading_bot");
  const orders = expectDict(scenarioValue(scenario, "orders", defaults), "TradingBot.orders");
  // Upstream turns str keys made of digits into int keys (JSON cannot hold int keys).
  self.orders = new Map(
    [...orders].map(([key, value]) => [typeof key === "string" && /^[0-9]+$/.test(key) ? Number(key) : key, value]),
  );
  self.account_info = expectDict(scenarioValue(scenario, "account_info", defaults), "TradingBot.account_info");
  self.authenticated = scenarioValue(scenario, "authenticated", defaults);
  self.market_status = scenarioValue(scenario, "market_status", defaults);
  self.order_counter = expectInt(scenarioValue(scenario, "order_counter", defaults), "TradingBot.order_counter");
  self.stocks = expectDict(scenarioValue(scenario, "stocks", defaults), "TradingBot.stocks");
  self.watch_list = expectList(scenarioValue(scenario, "watch_list", defaults), "TradingBot.watch_list");
  self.transaction_history = expectList(
    scenarioValue(scenario, "transaction_history", defaults),
    "TradingBot.transaction_history",
  );
  self.long_context = longContext;
  self.random = createPyRandom(expectInt(scenarioValue(scenario, "random_seed", defaults), "TradingBot.random_seed"));
}

/** Upstream draws randint(start, start + 1 day) over POSIX timestamps; only the offset matters. */
function transactionTimestamp(self: TradingBot): string {
  return pyStrftime(addSeconds(CURRENT_TIME, self.random.randint(0, SECONDS_PER_DAY)), "%Y-%m-%d %H:%M:%S");
}

function constantList(self: TradingBot, name: string): PyValue[] {
  return expectList(longContextConstant(self.constants, name), name).map(fromEllipsisMarker);
}

function getStockInfo(self: TradingBot, symbol: PyValue): PyValue {
  if (!dictHas(self.stocks, symbol)) return errorResult(`Stock with symbol '${pyStr(symbol)}' not found.`);
  if (self.long_context) {
    const stock = pyShallowCopy(pyGetItem(self.stocks, symbol));
    pySetItem(stock, "MA(5)", constantList(self, "MA_5_EXTENSION"));
    pySetItem(stock, "MA(20)", constantList(self, "MA_20_EXTENSION"));
    return stock;
  }
  return pyGetItem(self.stocks, symbol);
}

function getOrderDetails(self: TradingBot, orderId: PyValue): PyValue {
  if (!dictHas(self.orders, orderId)) {
    return errorResult(
      `Order with ID ${pyStr(orderId)} not found.Here is the list of orders_id: ${pyRepr([...self.orders.keys()])}`,
    );
  }
  if (!self.long_context) return pyGetItem(self.orders, orderId);
  const order = pyShallowCopy(pyGetItem(self.orders, orderId));
  const symbol = pyGetItem(order, "symbol");
  const metadata: PyDict = new Map();
  for (const [key, template] of expectDict(
    longContextConstant(self.constants, "ORDER_DETAIL_EXTENSION"),
    "ORDER_DETAIL_EXTENSION",
  )) {
    try {
      metadata.set(key, pyFormatNamed(String(template), new Map([["symbol", symbol]])));
    } catch (caught) {
      if (caught instanceof PyException && caught.pyType === "KeyError")
        return errorResult(`KeyError during formatting: ${caught.text}`);
      throw caught;
    }
  }
  pySetItem(order, "metadata", metadata);
  return order;
}

function cancelOrder(self: TradingBot, orderId: PyValue): PyValue {
  if (!dictHas(self.orders, orderId)) return errorResult(`Order with ID ${pyStr(orderId)} not found.`);
  const order = pyGetItem(self.orders, orderId);
  if (pyEquals(pyGetItem(order, "status"), "Completed"))
    return errorResult(`Can't cancel order ${pyStr(orderId)}. Order is already completed.`);
  pySetItem(order, "status", "Cancelled");
  return pyDictOf({ order_id: orderId, status: "Cancelled" });
}

function placeOrder(self: TradingBot, orderType: PyValue, symbol: PyValue, price: PyValue, amount: PyValue): PyValue {
  if (!pyTruthy(self.authenticated)) return errorResult("User not authenticated. Please log in to place an order.");
  if (!dictHas(self.stocks, symbol)) return errorResult(`Invalid stock symbol: ${pyStr(symbol)}`);
  if (pyCompare("<=", price, 0) || pyCompare("<=", amount, 0))
    return errorResult("Price and amount must be positive values.");
  if (pyLower(orderType) === "buy") {
    const totalCost = pyBinary("*", pyFloatOf(price), pyIntOf(amount));
    const balance = pyDictGet(self.account_info, "balance", 0);
    if (pyCompare(">", totalCost, balance)) {
      return errorResult(
        `Insufficient funds: required $${formatFixed(totalCost, 2)} but only $${formatFixed(balance, 2)} available.`,
      );
    }
  }
  const floatPrice = pyFloatOf(price);
  const orderId = self.order_counter;
  self.orders.set(
    orderId,
    pyDictOf({ id: orderId, order_type: orderType, symbol, price: floatPrice, amount, status: "Open" }),
  );
  self.order_counter += 1;
  // Upstream reports "Pending" although the stored order is "Open" (it simulates execution delay).
  return pyDictOf({ order_id: orderId, order_type: orderType, status: "Pending", price: floatPrice, amount });
}

function moveFunds(self: TradingBot, amount: PyValue, kind: "withdrawal" | "deposit"): PyValue {
  const balance = pyBinary(kind === "withdrawal" ? "-" : "+", pyGetItem(self.account_info, "balance"), amount, true);
  pySetItem(self.account_info, "balance", balance);
  self.transaction_history.push(pyDictOf({ type: kind, amount, timestamp: transactionTimestamp(self) }));
  const status = kind === "withdrawal" ? "Withdrawal successful" : "Account funded successfully";
  return pyDictOf({ status, new_balance: pyGetItem(self.account_info, "balance") });
}

function withdrawFunds(self: TradingBot, amount: PyValue): PyValue {
  if (!pyTruthy(self.authenticated)) return errorResult("User not authenticated. Please log in to make a transaction.");
  if (!pyEquals(self.market_status, "Open")) return errorResult("Market is closed. Transactions are not allowed.");
  if (pyCompare("<=", amount, 0)) return errorResult("Transaction amount must be positive.");
  if (pyCompare(">", amount, pyGetItem(self.account_info, "balance")))
    return errorResult("Insufficient funds for withdrawal.");
  return moveFunds(self, amount, "withdrawal");
}

function fundAccount(self: TradingBot, amount: PyValue): PyValue {
  if (!pyTruthy(self.authenticated)) return errorResult("User not authenticated. Please log in to fund the account.");
  if (pyCompare("<=", amount, 0)) return errorResult("Funding amount must be positive.");
  return moveFunds(self, amount, "deposit");
}

function removeFromWatchlist(self: TradingBot, symbol: PyValue): PyValue {
  if (!pyTruthy(self.authenticated))
    return errorResult("User not authenticated. Please log in to modify the watchlist.");
  if (!sequenceHas(self.watch_list, symbol)) return errorResult(`Stock ${pyStr(symbol)} not found in watchlist.`);
  self.watch_list.splice(
    self.watch_list.findIndex((item) => pyEquals(item, symbol)),
    1,
  );
  return pyDictOf({ status: `Stock ${pyStr(symbol)} removed from watchlist successfully.` });
}

function getWatchlist(self: TradingBot): PyValue {
  if (!pyTruthy(self.authenticated)) return ["Error: User not authenticated. Please log in to view the watchlist."];
  if (self.long_context) return [...self.watch_list, ...constantList(self, "WATCH_LIST_EXTENSION")];
  return pyDictOf({ watchlist: self.watch_list });
}

function getOrderHistory(self: TradingBot): PyValue {
  if (!pyTruthy(self.authenticated))
    return [errorResult("User not authenticated. Please log in to view order history.")];
  return pyDictOf({ history: [...self.orders.keys()] });
}

function getTransactionHistory(self: TradingBot, startDate: PyValue, endDate: PyValue): PyValue {
  if (!pyTruthy(self.authenticated))
    return [errorResult("User not authenticated. Please log in to view transaction history.")];
  const start = pyTruthy(startDate) ? pyStrptime(startDate, "%Y-%m-%d") : DATETIME_MIN;
  const end = pyTruthy(endDate) ? pyStrptime(endDate, "%Y-%m-%d") : DATETIME_MAX;
  const filtered = self.transaction_history.filter((transaction) => {
    const when = pyStrptime(pyGetItem(transaction, "timestamp"), "%Y-%m-%d %H:%M:%S");
    return compareDateTimes(start, when) <= 0 && compareDateTimes(when, end) <= 0;
  });
  if (self.long_context) filtered.push(...constantList(self, "TRANSACTION_HISTORY_EXTENSION"));
  return pyDictOf({ transaction_history: filtered });
}

function getAvailableStocks(self: TradingBot, sector: PyValue): PyValue {
  const technology: PyValue[] = ["AAPL", "GOOG", "MSFT", "NVDA"];
  const automobile: PyValue[] = ["TSLA", "F", "GM"];
  if (self.long_context) {
    technology.push(...constantList(self, "TECHNOLOGY_EXTENSION"));
    automobile.push(...constantList(self, "AUTOMOBILE_EXTENSION"));
  }
  const sectors: PyDict = new Map([
    ["Technology", technology],
    ["Automobile", automobile],
  ]);
  return pyDictOf({ stock_list: pyDictGet(sectors, sector, []) });
}

function stockPrice(self: TradingBot, symbol: PyValue): PyValue {
  return pyDictGet(pyDictGet(self.stocks, symbol, new Map()), "price", 0);
}

function filterStocksByPrice(self: TradingBot, stocks: PyValue, minPrice: PyValue, maxPrice: PyValue): PyValue {
  const filtered = pyIterate(stocks).filter(
    (symbol) =>
      pyCompare(">=", stockPrice(self, symbol), minPrice) && pyCompare("<=", stockPrice(self, symbol), maxPrice),
  );
  return pyDictOf({ filtered_stocks: [...filtered] });
}

function addToWatchlist(self: TradingBot, stock: PyValue): PyValue {
  if (!sequenceHas(self.watch_list, stock) && dictHas(self.stocks, stock)) self.watch_list.push(stock);
  return pyDictOf({ watchlist: self.watch_list });
}

function notifyPriceChange(self: TradingBot, stocks: PyValue, threshold: PyValue): PyValue {
  const changed = pyIterate(stocks).filter(
    (symbol) =>
      dictHas(self.stocks, symbol) &&
      pyCompare(">=", pyAbs(pyGetItem(pyGetItem(self.stocks, symbol), "percent_change")), threshold),
  );
  if (changed.length > 0)
    return pyDictOf({ notification: `Stocks ${pyJoin(", ", changed)} have significant price changes.` });
  return pyDictOf({ notification: "No significant price changes in the selected stocks." });
}

/** Method specs for the many one-argument and no-argument methods. */
const one = oneArgumentMethod<TradingBot>;
const none = noArgumentMethod<TradingBot>;

export const tradingBotClass = defineBfclClass<TradingBot>({
  className: "TradingBot",
  moduleName: "trading_bot",
  stateless: false,
  create(constants) {
    const self: TradingBot = {
      orders: new Map(),
      account_info: new Map(),
      authenticated: false,
      market_status: "Closed",
      order_counter: 0,
      stocks: new Map(),
      watch_list: [],
      transaction_history: [],
      long_context: false,
      random: createPyRandom(0),
      constants,
      loadScenario: (scenario, longContext) => loadScenario(self, scenario, longContext),
      publicState: () => [
        ["orders", self.orders],
        ["account_info", self.account_info],
        ["authenticated", self.authenticated],
        ["market_status", self.market_status],
        ["order_counter", self.order_counter],
        ["stocks", self.stocks],
        ["watch_list", self.watch_list],
        ["transaction_history", self.transaction_history],
        ["long_context", self.long_context],
      ],
    };
    return self;
  },
  methods: {
    get_current_time: none(() => pyDictOf({ current_time: pyStrftime(CURRENT_TIME, "%I:%M %p") })),
    get_symbol_by_name: one("name", (_, name) =>
      pyDictOf({ symbol: pyDictGet(SYMBOLS_BY_NAME, name, "Stock not found") }),
    ),
    get_stock_info: one("symbol", getStockInfo),
    get_order_details: one("order_id", getOrderDetails),
    cancel_order: one("order_id", cancelOrder),
    place_order: {
      params: [{ name: "order_type" }, { name: "symbol" }, { name: "price" }, { name: "amount" }],
      run: (self, args) =>
        placeOrder(
          self,
          argument(args, "order_type"),
          argument(args, "symbol"),
          argument(args, "price"),
          argument(args, "amount"),
        ),
    },
    withdraw_funds: one("amount", withdrawFunds),
    get_account_info: none((self) =>
      pyTruthy(self.authenticated)
        ? self.account_info
        : errorResult("User not authenticated. Please log in to view account information."),
    ),
    trading_login: {
      params: [{ name: "username" }, { name: "password" }],
      run(self) {
        if (pyTruthy(self.authenticated)) return pyDictOf({ status: "Already logged in" });
        self.authenticated = true;
        return pyDictOf({ status: "Logged in successfully" });
      },
    },
    trading_get_login_status: none((self) => pyDictOf({ status: pyTruthy(self.authenticated) })),
    trading_logout: none((self) => {
      if (!pyTruthy(self.authenticated)) return pyDictOf({ status: "No user is currently logged in" });
      self.authenticated = false;
      return pyDictOf({ status: "Logged out successfully" });
    }),
    fund_account: one("amount", fundAccount),
    remove_stock_from_watchlist: one("symbol", removeFromWatchlist),
    get_watchlist: none(getWatchlist),
    get_order_history: none(getOrderHistory),
    get_transaction_history: {
      params: [
        { name: "start_date", default: null },
        { name: "end_date", default: null },
      ],
      run: (self, args) => getTransactionHistory(self, argument(args, "start_date"), argument(args, "end_date")),
    },
    get_available_stocks: one("sector", getAvailableStocks),
    filter_stocks_by_price: {
      params: [{ name: "stocks" }, { name: "min_price" }, { name: "max_price" }],
      run: (self, args) =>
        filterStocksByPrice(self, argument(args, "stocks"), argument(args, "min_price"), argument(args, "max_price")),
    },
    add_to_watchlist: one("stock", addToWatchlist),
    notify_price_change: {
      params: [{ name: "stocks" }, { name: "threshold" }],
      run: (self, args) => notifyPriceChange(self, argument(args, "stocks"), argument(args, "threshold")),
    },
  },
});
