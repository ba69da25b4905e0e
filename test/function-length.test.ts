// No function in src/ is over 100 lines (DEVELOPERS.md, habit 11 asks for under ~60): every function, method and arrow
// in src/**/*.ts is measured from its first line to its last, as swc parses it (the AssemblyScript kernels under
// src/nn/wasm are left out: they are not TypeScript swc reads, and tsconfig leaves them out too). A failure lists
// each one over the bar as file:line name length.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseSync } from "@swc/core";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SRC = join(ROOT, "src");
const EXCLUDED = [join(SRC, "nn", "wasm")];
const MAX_LINES = 100;

const FUNCTION_TYPES = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "ClassMethod",
  "PrivateMethod",
  "MethodProperty",
  "GetterProperty",
  "SetterProperty",
  "Constructor",
]);

interface Span {
  readonly start: number;
  readonly end: number;
}

interface Node {
  readonly type?: string;
  readonly span?: Span;
  readonly [key: string]: unknown;
}

interface FunctionLength {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  readonly lines: number;
}

function sourceFiles(dir: string): string[] {
  if (EXCLUDED.includes(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The name an identifier-like node spells, or undefined. */
function spelledName(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (typeof node["value"] === "string") return node["value"];
  if (isNode(node["identifier"])) return spelledName(node["identifier"]);
  return undefined;
}

/** The name a function node carries itself (declarations, methods), or undefined for anonymous ones. */
function ownName(node: Node): string | undefined {
  return spelledName(node["identifier"]) ?? spelledName(node["key"]);
}

/** The byte offset (0-based) at which each line starts. */
function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) starts.push(i + 1);
  return starts;
}

/** The 1-based line holding a 0-based byte offset. */
function lineOf(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

function functionLengths(file: string): FunctionLength[] {
  const text = readFileSync(file, "utf8");
  const starts = lineStarts(Buffer.from(text, "utf8"));
  const module = parseSync(text, { syntax: "typescript", comments: false }) as unknown as Node;
  // swc's spans are 1-based byte offsets into the file (the module's span starts at its first token)
  const found: FunctionLength[] = [];
  const visit = (value: unknown, name: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, name);
      return;
    }
    if (!isNode(value)) return;
    let here = name;
    if (value.type === "VariableDeclarator") here = spelledName(value["id"]) ?? name;
    if (value.type === "KeyValueProperty" || value.type === "AssignmentPatternProperty") {
      here = spelledName(value["key"]) ?? name;
    }
    if (value.type !== undefined && FUNCTION_TYPES.has(value.type) && value.span !== undefined) {
      const own = ownName(value) ?? here;
      const line = lineOf(starts, value.span.start - 1);
      const lines = lineOf(starts, value.span.end - 2) - line + 1;
      found.push({ file: relative(ROOT, file), line, name: own, lines });
      here = own;
    }
    for (const [key, child] of Object.entries(value)) if (key !== "span") visit(child, here);
  };
  visit(module, "(anonymous)");
  return found;
}

describe("function length", () => {
  it(`no function in src/ is over ${MAX_LINES} lines`, () => {
    const longest = sourceFiles(SRC)
      .flatMap(functionLengths)
      .filter((found) => found.lines > MAX_LINES)
      .sort((a, b) => b.lines - a.lines)
      .map((found) => `${found.file}:${found.line} ${found.name} ${found.lines}`);
    expect(longest).toEqual([]);
  });
});
