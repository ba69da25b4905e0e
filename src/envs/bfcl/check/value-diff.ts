// A readable diff of two Python values (model vs ground truth) as lines naming the path where they differ:
//   root.contents['document'].contents['temp']: missing in model (ground truth: <Directory: temp>)
//   balance: model 9850.0, ground truth 9900.0
// Dicts and instances are compared key by key, lists and tuples item by item when their lengths agree, sets by
// their missing and extra elements; anything else is shown whole (repr, shortened). Equality is Python's ==.
import { pyRepr } from "../py/format.js";
import {
  dictGet,
  isDict,
  isPyObject,
  isSet,
  isTuple,
  pyEquals,
  type PyKey,
  type PyObject,
  type PyValue,
} from "../py/value.js";

const MAX_REPR = 160;

/** repr(value), shortened to about `limit` characters. */
export function shortRepr(value: PyValue | undefined, limit = MAX_REPR): string {
  if (value === undefined) return "<absent>";
  let text: string;
  try {
    text = pyRepr(value);
  } catch {
    text = `<${isPyObject(value) ? value.pyClass : "value"}>`;
  }
  return text.length > limit ? `${text.slice(0, limit)}... (${text.length} chars)` : text;
}

function keyPath(path: string, key: PyKey): string {
  return `${path}[${pyRepr(key)}]`;
}

function sequenceOf(value: PyValue): readonly PyValue[] | null {
  if (Array.isArray(value)) return value;
  if (isTuple(value)) return value.items;
  return null;
}

interface DiffContext {
  readonly lines: string[];
  readonly limit: number;
  readonly seen: PyObject[];
}

function push(context: DiffContext, line: string): void {
  if (context.lines.length < context.limit) context.lines.push(line);
}

function walk(model: PyValue | undefined, truth: PyValue | undefined, path: string, context: DiffContext): void {
  if (context.lines.length >= context.limit) return;
  if (model === undefined || truth === undefined) {
    push(
      context,
      model === undefined
        ? `${path}: missing in model (ground truth: ${shortRepr(truth)})`
        : `${path}: extra in model (${shortRepr(model)})`,
    );
    return;
  }
  if (pyEquals(model, truth)) return;
  if (isDict(model) && isDict(truth)) {
    for (const [key, value] of truth) walk(dictGet(model, key), value, keyPath(path, key), context);
    for (const [key, value] of model)
      if (dictGet(truth, key) === undefined) walk(value, undefined, keyPath(path, key), context);
    return;
  }
  if (isSet(model) && isSet(truth)) {
    const missing = [...truth].filter((item) => ![...model].some((other) => pyEquals(other, item)));
    const extra = [...model].filter((item) => ![...truth].some((other) => pyEquals(other, item)));
    push(
      context,
      `${path}: set differs${missing.length > 0 ? `; missing in model: ${shortRepr(missing)}` : ""}${extra.length > 0 ? `; extra in model: ${shortRepr(extra)}` : ""}`,
    );
    return;
  }
  const modelItems = sequenceOf(model);
  const truthItems = sequenceOf(truth);
  if (
    modelItems !== null &&
    truthItems !== null &&
    modelItems.length === truthItems.length &&
    Array.isArray(model) === Array.isArray(truth)
  ) {
    truthItems.forEach((item, index) => walk(modelItems[index], item, `${path}[${index}]`, context));
    return;
  }
  if (isPyObject(model) && isPyObject(truth) && model.pyClass === truth.pyClass && !context.seen.includes(model)) {
    context.seen.push(model);
    const modelAttributes = new Map(model.pyAttributes());
    const before = context.lines.length;
    for (const [name, value] of truth.pyAttributes())
      walk(modelAttributes.get(name), value, `${path}.${name}`, context);
    context.seen.pop();
    if (context.lines.length > before) return;
  }
  push(context, `${path}: model ${shortRepr(model)}, ground truth ${shortRepr(truth)}`);
}

/** Lines describing where `model` and `truth` differ under `path` (at most `limit` lines). */
export function diffValues(model: PyValue | undefined, truth: PyValue | undefined, path: string, limit = 20): string[] {
  const context: DiffContext = { lines: [], limit, seen: [] };
  walk(model, truth, path, context);
  return context.lines;
}
