// The eight upstream backend classes of the multi-turn categories, in upstream's CLASS_FILE_PATH_MAPPING order,
// one file each under apis/. Envs built with this list refuse entries whose classes are missing (a DataError
// naming them).
import type { AnyBfclClass } from "./api.js";
import { gorillaFileSystemClass } from "./apis/gorilla-file-system.js";
import { mathApiClass } from "./apis/math-api.js";
import { messageApiClass } from "./apis/message-api.js";
import { postingApiClass } from "./apis/posting-api.js";
import { ticketApiClass } from "./apis/ticket-api.js";
import { tradingBotClass } from "./apis/trading-bot.js";
import { travelBookingClass } from "./apis/travel-booking.js";
import { vehicleControlClass } from "./apis/vehicle-control.js";

export const BFCL_CLASSES: readonly AnyBfclClass[] = [
  gorillaFileSystemClass,
  mathApiClass,
  messageApiClass,
  postingApiClass,
  ticketApiClass,
  tradingBotClass,
  travelBookingClass,
  vehicleControlClass,
];
