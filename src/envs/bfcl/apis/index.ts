// The BFCL backend classes: the contract every class implements, the helpers they share, the eight upstream
// classes, the registry an env resolves an entry's classes with, and the instance set that runs calls on them.
export {
  defineBfclClass,
  type AnyBfclClass,
  type BfclClass,
  type BfclConstants,
  type BfclInstance,
  type MethodSpec,
} from "./backend-class.js";
export { BfclDataError } from "./backend-support.js";
export { BFCL_FUNC_DOC_FILES, bfclClassRegistry, methodOf, type BfclClassRegistry } from "./class-registry.js";
export { createInstanceSet, executeCall, type CallOutcome, type InstanceSet } from "./instance-set.js";
export { BFCL_CLASSES } from "./upstream-classes.js";
export { gorillaFileSystemClass } from "./gorilla-file-system.js";
export { mathApiClass } from "./math-api.js";
export { messageApiClass } from "./message-api.js";
export { postingApiClass } from "./posting-api.js";
export { ticketApiClass } from "./ticket-api.js";
export { tradingBotClass } from "./trading-bot.js";
export { makeTravelBookingClass, travelBookingClass } from "./travel-booking.js";
export { vehicleControlClass } from "./vehicle-control.js";
