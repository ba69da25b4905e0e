// The eight upstream backend classes of the multi-turn categories, in upstream's CLASS_FILE_PATH_MAPPING order,
// one file each under apis/. Envs built with this list refuse entries whose classes are missing (a DataError
// naming them).
import type { AnyBfclClass } from "./backend-class.js";
import { gorillaFileSystemClass } from "./gorilla-file-system.js";
import { mathApiClass } from "./math-api.js";
import { messageApiClass } from "./message-api.js";
import { postingApiClass } from "./posting-api.js";
import { ticketApiClass } from "./ticket-api.js";
import { tradingBotClass } from "./trading-bot.js";
import { travelBookingClass } from "./travel-booking.js";
import { vehicleControlClass } from "./vehicle-control.js";

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
