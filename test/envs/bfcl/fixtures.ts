// Test fixtures for the BFCL loop without the real backends: two small fake classes (Counter, Notes), their
// function docs, and a temporary data dir with one entry per category in upstream's layout.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Message } from "../../../src/core/message.js";
import { defineBfclClass, type BfclInstance } from "../../../src/envs/bfcl/apis/backend-class.js";
import { createBfclContext, type BfclRules } from "../../../src/envs/bfcl/context.js";
import { BFCL_CATEGORIES, type BfclEntry } from "../../../src/envs/bfcl/load/entries.js";
import { loadBfclDataset } from "../../../src/envs/bfcl/load/dataset.js";
import { bfclClassRegistry } from "../../../src/envs/bfcl/apis/class-registry.js";
import { keyError } from "../../../src/envs/bfcl/py/errors.js";
import { isDict, pyDictOf, type PyDict, type PyValue } from "../../../src/envs/bfcl/py/value.js";

interface Counter extends BfclInstance {
  count: number;
  history: number[];
}

export const counterClass = defineBfclClass<Counter>({
  className: "Counter",
  moduleName: "counter",
  stateless: false,
  create: () => ({
    count: 0,
    history: [],
    loadScenario(scenario) {
      const start = scenario.get("count");
      this.count = typeof start === "number" ? start : 0;
    },
    publicState() {
      return [
        ["count", this.count],
        ["history", this.history],
      ] as const;
    },
  }),
  methods: {
    add: {
      params: [{ name: "amount", default: 1 }],
      run(self, args) {
        const amount = args.get("amount") as number;
        self.count += amount;
        self.history.push(amount);
        return pyDictOf({ count: self.count });
      },
    },
    get: { params: [], run: (self) => self.count },
  },
});

interface Notes extends BfclInstance {
  notes: PyDict;
}

export const notesClass = defineBfclClass<Notes>({
  className: "Notes",
  moduleName: "notes",
  stateless: false,
  create: () => ({
    notes: new Map(),
    loadScenario(scenario) {
      const notes = scenario.get("notes");
      this.notes = isDict(notes) ? notes : new Map();
    },
    publicState() {
      return [["notes", this.notes]] as const;
    },
  }),
  methods: {
    write: {
      params: [{ name: "title" }, { name: "text" }],
      run(self, args) {
        self.notes.set(args.get("title") as string, args.get("text") as PyValue);
        return pyDictOf({ status: "ok" });
      },
    },
    read: {
      params: [{ name: "title" }],
      run(self, args) {
        const text = self.notes.get(args.get("title") as string);
        if (text === undefined) throw keyError(args.get("title") as PyValue);
        return text;
      },
    },
    delete: {
      params: [{ name: "title" }],
      run(self, args) {
        self.notes.delete(args.get("title") as string);
        return null;
      },
    },
  },
});

export const FAKE_CLASSES = [counterClass, notesClass];

const COUNTER_DOCS = [
  {
    name: "add",
    description: "Add to the counter.",
    parameters: {
      type: "dict",
      properties: { amount: { type: "integer", description: "How much to add.", default: 1 } },
      required: [],
    },
    response: { type: "dict", properties: { count: { type: "integer", description: "New count." } } },
  },
  {
    name: "get",
    description: "Read the counter.",
    parameters: { type: "dict", properties: {}, required: [] },
    response: { type: "integer" },
  },
];

const NOTES_DOCS = [
  {
    name: "write",
    description: "Write a note.",
    parameters: {
      type: "dict",
      properties: { title: { type: "string", description: "Title." }, text: { type: "string", description: "Text." } },
      required: ["title", "text"],
    },
  },
  {
    name: "read",
    description: "Read a note.",
    parameters: { type: "dict", properties: { title: { type: "string", description: "Title." } }, required: ["title"] },
  },
  {
    name: "delete",
    description: "Delete a note.",
    parameters: { type: "dict", properties: { title: { type: "string", description: "Title." } }, required: ["title"] },
  },
];

const CONFIG = { Counter: { count: 1 }, Notes: { notes: { todo: "buy milk" } } };
const CLASSES = ["Counter", "Notes"];

function user(content: string) {
  return [{ role: "user", content }];
}

/** Entries and ground truth per category: [entries, answers]. */
export const FAKE_ENTRIES: Record<string, [Record<string, unknown>[], Record<string, unknown>[]]> = {
  base: [
    [
      {
        id: "multi_turn_base_0",
        question: [user("Add 2."), user("Write note a."), user("Read note a.")],
        initial_config: CONFIG,
        involved_classes: CLASSES,
        path: [],
        excluded_function: ["delete"],
      },
      {
        id: "multi_turn_base_1",
        question: [user("Add 5 twice."), user("What is the count?")],
        initial_config: CONFIG,
        involved_classes: CLASSES,
        path: [],
      },
    ],
    [
      { id: "multi_turn_base_0", ground_truth: [["add(amount=2)"], ["write(title='a',text='hello')"], ["read('a')"]] },
      { id: "multi_turn_base_1", ground_truth: [["add(amount=5)", "add(amount=5)"], ["get()"]] },
    ],
  ],
  miss_func: [
    [
      {
        id: "multi_turn_miss_func_0",
        question: [user("Add 2."), user("Read note todo."), []],
        initial_config: CONFIG,
        involved_classes: CLASSES,
        path: [],
        missed_function: { "2": ["read"] },
      },
    ],
    [{ id: "multi_turn_miss_func_0", ground_truth: [["add(amount=2)"], [], ["read(title='todo')"]] }],
  ],
  miss_param: [
    [
      {
        id: "multi_turn_miss_param_0",
        question: [user("Add 2."), user("Add some more."), user("Three more.")],
        initial_config: CONFIG,
        involved_classes: CLASSES,
        path: [],
      },
    ],
    [{ id: "multi_turn_miss_param_0", ground_truth: [["add(amount=2)"], [], ["add(amount=3)"]] }],
  ],
  long_context: [
    [
      {
        id: "multi_turn_long_context_0",
        question: [user("Add 2."), user("Write note b.")],
        initial_config: CONFIG,
        involved_classes: CLASSES,
        path: [],
      },
    ],
    [{ id: "multi_turn_long_context_0", ground_truth: [["add(amount=2)"], ["write(title='b', text='x')"]] }],
  ],
};

function jsonLines(items: readonly unknown[]): string {
  return items.map((item) => JSON.stringify(item)).join("\n") + "\n";
}

/** A fresh temporary data dir with the fake entries (optionally edited first). */
export function writeFakeDataDir(edit?: (files: Map<string, string>) => void): string {
  const files = new Map<string, string>();
  for (const [category, [entries, answers]] of Object.entries(FAKE_ENTRIES)) {
    files.set(`data/BFCL_v4_multi_turn_${category}.json`, jsonLines(entries));
    files.set(`possible_answer/BFCL_v4_multi_turn_${category}.json`, jsonLines(answers));
  }
  files.set("func_doc/counter.json", jsonLines(COUNTER_DOCS));
  files.set("func_doc/notes.json", jsonLines(NOTES_DOCS));
  files.set("default_state.json", JSON.stringify({ counter: { count: 0 } }, null, 1));
  files.set("long_context.json", JSON.stringify({ WATCH_LIST_EXTENSION: ["A", { __python_ellipsis__: true }] }));
  edit?.(files);
  const dir = mkdtempSync(join(tmpdir(), "bfcl-fake-"));
  for (const [path, text] of files) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A context over a fresh fake data dir (every category), with upstream's rules unless overridden. */
export function fakeContext(rules: Partial<BfclRules> = {}) {
  const dir = writeFakeDataDir();
  const registry = bfclClassRegistry(FAKE_CLASSES);
  const dataset = loadBfclDataset(dir, BFCL_CATEGORIES, { registry });
  const context = createBfclContext(dataset, FAKE_CLASSES, rules);
  const entry = (id: string): BfclEntry => {
    const found = dataset.byId.get(id);
    if (found === undefined) throw new Error(`no fake entry ${id}`);
    return found;
  };
  return { dir, dataset, context, entry };
}

/** An assistant message with tool calls given as [name, JSON arguments]. */
export function toolCalls(...calls: readonly (readonly [string, string])[]): Message {
  return {
    role: "assistant",
    content: "",
    toolCalls: calls.map(([name, args], index) => ({ id: `t${index}`, name, arguments: args })),
  };
}

export const ANSWER: Message = { role: "assistant", content: "Done." };
