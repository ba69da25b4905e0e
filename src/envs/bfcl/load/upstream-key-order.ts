// Upstream's key order for the dicts of default_state.json and long_context.json. Python prints a dict in
// insertion order, and the JSON copies of upstream's DEFAULT_STATE and long-context constants were written with
// sorted keys, which changes the text of results such as get_order_details or a long-context booking history.
// Each list is the key order of the upstream literal, for every dict whose sorted order differs from it; the
// loader (restoreKeyOrder) puts any dict with exactly that set of keys back into this order. Derived from the
// upstream modules at the data's commit (6ea5797); data in upstream order passes through unchanged.
export const UPSTREAM_KEY_ORDERS: readonly (readonly string[])[] = [
  ["generated_ids", "user_count", "user_map", "inbox", "message_count", "current_user"],
  ["username", "password", "authenticated", "tweets", "comments", "retweets", "following_list", "tweet_counter"],
  ["ticket_queue", "ticket_counter", "current_user"],
  ["orders", "account_info", "authenticated", "market_status", "order_counter", "stocks", "watch_list", "transaction_history", "random_seed"],
  ["id", "order_type", "symbol", "price", "amount", "status"],
  ["AAPL", "GOOG", "TSLA", "MSFT", "NVDA", "ALPH", "OMEG", "QUAS", "NEPT", "SYNX", "ZETA"],
  ["price", "percent_change", "volume", "MA(5)", "MA(20)"],
  ["random_seed", "credit_card_list", "booking_record", "access_token", "token_type", "token_expires_in", "token_scope", "user_first_name", "user_last_name", "budget_limit"],
  ["random_seed", "fuelLevel", "batteryVoltage", "engine_state", "remainingUnlockedDoors", "doorStatus", "acTemperature", "fanSpeed", "acMode", "humidityLevel", "headLightStatus", "parkingBrakeStatus", "_parkingBrakeForce", "_slopeAngle", "brakePedalStatus", "brakePedalForce", "distanceToNextVehicle", "cruiseStatus", "destination", "frontLeftTirePressure", "frontRightTirePressure", "rearLeftTirePressure", "rearRightTirePressure"],
  ["booking_901", "booking_902", "booking_903", "booking_904", "booking_997", "booking_998", "booking_999", "booking_900", "booking_401", "booking_402", "booking_403", "booking_404", "booking_497", "booking_498", "booking_499", "booking_400"],
  ["card_id", "travel_date", "travel_from", "travel_to", "travel_class", "travel_cost", "transaction_id"],
  ["1234567812345678", "2345678923456789", "3456789034567890", "4567890145678901", "9978997699789976", "9989997799899989", "9999997899999999", "1000000790000000", "1234567812345674", "2345678923456784", "3456789034567894", "4567890145678904", "9978997699789974", "9989997799899984", "9999997899999994", "1000000790000004", "1456789034567891", "1567890145678901", "1978997699789971", "1989997799899981", "1999997899999991", "1000000790000001"],
  ["card_number", "expiration_date", "cardholder_name", "card_verification_number", "balance"],
  ["-1_day", "-2_day", "-3_day", "-4_day", "-5_day", "-6_day", "-7_day", "-8_day", "-9_day", "-10_day", "-11_day", "-12_day", "-13_day", "-14_day", "-15_day"],
  ["windSpeed", "humidity", "precipitation", "uvIndex", "visibility", "airPressure", "dewPoint"],
  ["company_overview", "market_analysis", "technical_analysis", "financial_highlights", "risks", "future_outlook", "historical_performance", "sustainability_initiatives"],
  ["type", "amount", "timestamp"],
];
