// The names a module's source exports, runtime and type apart, read from its syntax with @swc/core's parser (the
// installed TypeScript is the Go port, without a compiler API): `export { a, type B } from`, `export type { C }`,
// `export function/const/class/enum` (runtime) and `export interface/type` (types). Entries name every export, so
// `export *` is reported as such rather than followed; public-api.test.ts checks the runtime names against what
// importing the module really gives.
import { readFileSync } from "node:fs";
import { parseSync, type ModuleItem } from "@swc/core";

export interface ExportedNames {
  readonly runtime: readonly string[];
  readonly types: readonly string[];
  /** The sources of `export * from` statements, which these lists do not follow. */
  readonly starred: readonly string[];
}

/** The names one declaration exports, and whether they are types only. */
function declared(item: ModuleItem & { type: "ExportDeclaration" }): { names: string[]; type: boolean } {
  const { declaration } = item;
  switch (declaration.type) {
    case "TsInterfaceDeclaration":
    case "TsTypeAliasDeclaration":
      return { names: [declaration.id.value], type: true };
    case "VariableDeclaration":
      return {
        names: declaration.declarations.flatMap((part) => (part.id.type === "Identifier" ? [part.id.value] : [])),
        type: false,
      };
    case "FunctionDeclaration":
    case "ClassDeclaration":
      return { names: [declaration.identifier.value], type: false };
    case "TsEnumDeclaration":
      return { names: [declaration.id.value], type: false };
    default:
      throw new Error(`exported-names: unsupported export declaration ${declaration.type}`);
  }
}

/** The exported names of the TypeScript module at `path`, each list sorted. */
export function exportedNames(path: string): ExportedNames {
  const module = parseSync(readFileSync(path, "utf8"), { syntax: "typescript" });
  const runtime = new Set<string>();
  const types = new Set<string>();
  const starred: string[] = [];
  for (const item of module.body) {
    if (item.type === "ExportAllDeclaration") starred.push(item.source.value);
    else if (item.type === "ExportDeclaration") {
      const { names, type } = declared(item);
      for (const name of names) (type ? types : runtime).add(name);
    } else if (item.type === "ExportNamedDeclaration") {
      for (const specifier of item.specifiers) {
        if (specifier.type !== "ExportSpecifier") throw new Error(`exported-names: ${specifier.type} in ${path}`);
        const { value } = specifier.exported ?? specifier.orig;
        (item.typeOnly || specifier.isTypeOnly ? types : runtime).add(value);
      }
    } else if (item.type === "ExportDefaultDeclaration" || item.type === "ExportDefaultExpression") {
      runtime.add("default");
    }
  }
  return { runtime: [...runtime].sort(), types: [...types].sort(), starred };
}
