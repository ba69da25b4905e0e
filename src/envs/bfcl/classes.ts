// The upstream backend classes of the multi-turn categories, in upstream's CLASS_FILE_PATH_MAPPING order, one
// file each under apis/. Envs built with this list refuse entries whose classes are missing (a DataError naming
// them), and the tests and the bench that need all eight skip or say so.
// Still to wire (branch bfcl-a): GorillaFileSystem, MathAPI, MessageAPI, TwitterAPI, TicketAPI.
import type { AnyBfclClass } from "./api.js";
import { tradingBotClass } from "./apis/trading-bot.js";
import { travelBookingClass } from "./apis/travel-booking.js";
import { vehicleControlClass } from "./apis/vehicle-control.js";

export const BFCL_CLASSES: readonly AnyBfclClass[] = [tradingBotClass, travelBookingClass, vehicleControlClass];
