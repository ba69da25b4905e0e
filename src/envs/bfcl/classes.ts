// The eight upstream backend classes of the multi-turn categories, in upstream's CLASS_FILE_PATH_MAPPING order.
// The classes live in apis/ (one file each, exported as `<name>Class`). Until they are wired in, this list is
// empty: envs built with it refuse entries whose classes are missing (a DataError naming them), and the tests
// that need the real classes skip. Wiring: import gorillaFileSystemClass from "./apis/gorilla-file-system.js",
// mathApiClass, messageApiClass, twitterApiClass, ticketApiClass, tradingBotClass, travelApiClass,
// vehicleControlApiClass likewise, and list them here.
import type { AnyBfclClass } from "./api.js";

export const BFCL_CLASSES: readonly AnyBfclClass[] = [];
