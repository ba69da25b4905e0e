// Python values in TypeScript, as the BFCL backends see them. Upstream's observable strings depend on Python's
// types (str(5) is "5" but str(5.0) is "5.0"; a dict prints as {'a': 1}; a tuple as (1,)), so we keep them:
//   None -> null          bool -> boolean       int -> number (an integer; BFCL ints fit in 2^53)
//   float -> PyFloat      str -> string         list -> PyValue[]      tuple -> PyTuple
//   dict -> Map (insertion-ordered, keys str/int/bool/None)            set -> Set
//   instances (File, Directory, ...) -> objects implementing PyObject
// Helpers here construct and inspect values; format.ts prints them; equality follows Python's `==`.

export type PyKey = string | number | boolean | null;

export interface PyFloat {
  readonly kind: "float";
  readonly value: number;
}

export interface PyTuple {
  readonly kind: "tuple";
  readonly items: readonly PyValue[];
}

/** A Python instance with public attributes (upstream File, Directory, ...). */
export interface PyObject {
  readonly kind: "object";
  /** Upstream class name, e.g. "File". */
  readonly pyClass: string;
  /** Public attributes in upstream order (vars() without "_" names), minus back-references such as a
   * Directory's parent, so that state dumps stay trees. */
  pyAttributes(): readonly (readonly [string, PyValue])[];
  /** Python repr() of the instance (upstream __repr__, or the default `<module.Class object>`). */
  pyRepr(): string;
  /** Python `==` (upstream __eq__; identity when upstream defines none). */
  pyEquals(other: PyValue): boolean;
}

export type PyDict = Map<PyKey, PyValue>;
export type PySet = Set<PyKey>;
export type PyValue = null | boolean | number | string | PyFloat | PyTuple | PyObject | PyValue[] | PyDict | PySet;

export function pyFloat(value: number): PyFloat {
  return { kind: "float", value };
}

export function pyTuple(items: readonly PyValue[]): PyTuple {
  return { kind: "tuple", items };
}

export function pyDict(entries: Iterable<readonly [PyKey, PyValue]> = []): PyDict {
  return new Map(entries);
}

/** A dict from a plain record, values already Python values. */
export function pyDictOf(record: Readonly<Record<string, PyValue>>): PyDict {
  return new Map(Object.entries(record));
}

function kindOf(value: PyValue | undefined): string | undefined {
  return typeof value === "object" && value !== null ? (value as { readonly kind?: string }).kind : undefined;
}

export function isFloat(value: PyValue | undefined): value is PyFloat {
  return kindOf(value) === "float";
}

export function isTuple(value: PyValue | undefined): value is PyTuple {
  return kindOf(value) === "tuple";
}

export function isPyObject(value: PyValue | undefined): value is PyObject {
  return kindOf(value) === "object";
}

export function isDict(value: PyValue | undefined): value is PyDict {
  return value instanceof Map;
}

export function isList(value: PyValue | undefined): value is PyValue[] {
  return Array.isArray(value);
}

export function isSet(value: PyValue | undefined): value is PySet {
  return value instanceof Set;
}

/** int or float (bool excluded, unlike Python's isinstance(x, int)). */
export function isNumber(value: PyValue | undefined): value is number | PyFloat {
  return typeof value === "number" || isFloat(value);
}

/** The JS number of an int or float. */
export function numberOf(value: number | PyFloat): number {
  return typeof value === "number" ? value : value.value;
}

/** Python's type(x).__name__, used in error messages. */
export function pyTypeName(value: PyValue): string {
  if (value === null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return "int";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (value instanceof Map) return "dict";
  if (value instanceof Set) return "set";
  if (value.kind === "float") return "float";
  if (value.kind === "tuple") return "tuple";
  return value.pyClass;
}

/** Python truthiness. */
export function pyTruthy(value: PyValue): boolean {
  if (value === null) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value.length > 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map || value instanceof Set) return value.size > 0;
  if (value.kind === "float") return value.value !== 0;
  if (value.kind === "tuple") return value.items.length > 0;
  return true;
}

/** Python `==`: numbers compare across int/float/bool, dicts ignore order, lists and tuples never equal. */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  if (a === b) return true;
  const aNumeric = typeof a === "number" || typeof a === "boolean" || isFloat(a);
  const bNumeric = typeof b === "number" || typeof b === "boolean" || isFloat(b);
  if (aNumeric || bNumeric) return aNumeric && bNumeric && numericOf(a) === numericOf(b);
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return false;
  if (Array.isArray(a)) return Array.isArray(b) && sequenceEquals(a, b);
  if (Array.isArray(b)) return false;
  if (a instanceof Map) return b instanceof Map && dictEquals(a, b);
  if (a instanceof Set) return b instanceof Set && a.size === b.size && [...a].every((key) => setHas(b, key));
  if (b instanceof Map || b instanceof Set) return false;
  if (a.kind === "tuple") return b.kind === "tuple" && sequenceEquals(a.items, b.items);
  if (a.kind === "object") return a.pyEquals(b);
  if (b.kind === "object") return b.pyEquals(a);
  return false;
}

function numericOf(value: PyValue): number {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  return (value as PyFloat).value;
}

function sequenceEquals(a: readonly PyValue[], b: readonly PyValue[]): boolean {
  return a.length === b.length && a.every((item, index) => pyEquals(item, b[index] as PyValue));
}

function dictEquals(a: PyDict, b: PyDict): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) {
    const other = dictGet(b, key);
    if (other === undefined || !pyEquals(value, other)) return false;
  }
  return true;
}

/** Normalise a key the way Python hashes it: True == 1, False == 0 as dict keys. */
function keyCandidates(key: PyKey): readonly PyKey[] {
  if (typeof key === "boolean") return [key, key ? 1 : 0];
  if (key === 1 || key === 0) return [key, key === 1];
  return [key];
}

/** d.get(key) with Python key equality (1 and True are the same key); undefined when absent. */
export function dictGet(dict: PyDict, key: PyKey): PyValue | undefined {
  for (const candidate of keyCandidates(key)) if (dict.has(candidate)) return dict.get(candidate);
  return undefined;
}

function setHas(set: PySet, key: PyKey): boolean {
  return keyCandidates(key).some((candidate) => set.has(candidate));
}

/** A dict key from a value: str, int, bool, None (floats with integral values become ints, as Python hashes them). */
export function toKey(value: PyValue): PyKey {
  if (value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return value;
  if (isFloat(value) && Number.isInteger(value.value)) return value.value;
  throw new TypeError(`unhashable or unsupported key type: '${pyTypeName(value)}'`);
}

/** A deep copy, as copy.deepcopy would make of plain data (objects are kept by reference). */
export function pyDeepCopy<T extends PyValue>(value: T): T {
  return deepCopy(value) as T;
}

function deepCopy(value: PyValue): PyValue {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (value instanceof Map) {
    const copy: PyDict = new Map();
    for (const [key, inner] of value) copy.set(key, deepCopy(inner));
    return copy;
  }
  if (value instanceof Set) return new Set(value);
  if (isTuple(value)) return pyTuple(value.items.map(deepCopy));
  return value;
}
