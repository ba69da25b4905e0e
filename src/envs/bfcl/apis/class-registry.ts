// The backend classes an env can instantiate, by upstream class name, and where their function docs live.
// A registry is built from a list of classes (the eight real ones in upstream-classes.ts, or fakes in tests), so
// that nothing here depends on which classes exist.
import { DataError } from "../../../core/errors.js";
import type { AnyBfclClass, MethodSpec, BfclInstance } from "./backend-class.js";

/** Upstream's MULTI_TURN_FUNC_DOC_FILE_MAPPING (bfcl_eval/constants/executable_backend_config.py). */
export const BFCL_FUNC_DOC_FILES: Readonly<Record<string, string>> = {
  GorillaFileSystem: "gorilla_file_system.json",
  MathAPI: "math_api.json",
  MessageAPI: "message_api.json",
  TwitterAPI: "posting_api.json",
  TicketAPI: "ticket_api.json",
  TradingBot: "trading_bot.json",
  TravelAPI: "travel_booking.json",
  VehicleControlAPI: "vehicle_control.json",
  WebSearchAPI: "web_search.json",
  MemoryAPI_kv: "memory_kv.json",
  MemoryAPI_vector: "memory_vector.json",
  MemoryAPI_rec_sum: "memory_rec_sum.json",
};

export interface BfclClassRegistry {
  /** Class name -> class, in the order given. */
  readonly classes: ReadonlyMap<string, AnyBfclClass>;
  /** Class name -> function doc file name: upstream's mapping, else "<moduleName>.json". */
  readonly funcDocFiles: Readonly<Record<string, string>>;
  /** The classes of an entry, in its order; throws DataError naming the missing ones. */
  resolve(classNames: readonly string[], where: string): AnyBfclClass[];
}

export function bfclClassRegistry(classes: readonly AnyBfclClass[]): BfclClassRegistry {
  const byName = new Map<string, AnyBfclClass>();
  for (const cls of classes) {
    if (byName.has(cls.className)) throw new TypeError(`bfclClassRegistry: class ${cls.className} is listed twice`);
    byName.set(cls.className, cls);
  }
  const funcDocFiles: Record<string, string> = { ...BFCL_FUNC_DOC_FILES };
  for (const cls of classes)
    if (!(cls.className in BFCL_FUNC_DOC_FILES)) funcDocFiles[cls.className] = `${cls.moduleName}.json`;
  return {
    classes: byName,
    funcDocFiles,
    resolve(classNames, where) {
      const missing = classNames.filter((name) => !byName.has(name));
      if (missing.length > 0) {
        const known = [...byName.keys()];
        throw new DataError(
          `${where}: backend class${missing.length === 1 ? "" : "es"} ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not available`,
          known.length === 0
            ? "no BFCL backend classes are registered in this build (src/envs/bfcl/apis/upstream-classes.ts)"
            : `available classes: ${known.join(", ")}`,
        );
      }
      return classNames.map((name) => byName.get(name) as AnyBfclClass);
    },
  };
}

/** The method a bare function name resolves to among `classes` (a later class wins a clash, as upstream). */
export function methodOf(classes: readonly AnyBfclClass[], name: string): MethodSpec<BfclInstance> | undefined {
  for (let index = classes.length - 1; index >= 0; index--) {
    const method = (classes[index] as AnyBfclClass).methods[name];
    if (method !== undefined && Object.hasOwn((classes[index] as AnyBfclClass).methods, name)) return method;
  }
  return undefined;
}
