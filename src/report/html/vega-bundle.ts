// The charting library, inlined into every report so that it renders with no network: Vega, Vega-Lite and
// vega-embed, read from their packages' minified browser builds (runtime dependencies of the report). Source
// map comments are dropped (nothing to fetch), and a build that could close the script element is refused.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { DataError, thrownMessage } from "../../core/errors.js";

export interface VegaBundle {
  /** Script texts, in load order: vega, vega-lite, vega-embed. */
  readonly scripts: readonly string[];
  readonly versions: Readonly<Record<string, string>>;
}

let cached: VegaBundle | undefined;

function buildDir(name: string): string {
  // The packages export only their entry points; the browser builds sit next to them in build/.
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch (error) {
    throw new DataError(
      `cannot find the ${name} package: ${thrownMessage(error)}`,
      "run `npm ci`: the HTML report inlines vega, vega-lite and vega-embed",
    );
  }
  let dir = dirname(entry);
  while (!dir.endsWith("build") && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function readBuild(name: string, file: string): { text: string; version: string } {
  const dir = buildDir(name);
  const text = readFileSync(join(dir, file), "utf8").replace(/\n?\/\/# sourceMappingURL=\S*\s*$/, "\n");
  if (/<\/script|<!--/i.test(text))
    throw new DataError(
      `${name}/${file} contains "</script" or "<!--" and cannot be inlined`,
      "pin another version of the package",
    );
  const version =
    (JSON.parse(readFileSync(join(dirname(dir), "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  return { text, version };
}

export function vegaBundle(): VegaBundle {
  if (cached !== undefined) return cached;
  const parts = [
    readBuild("vega", "vega.min.js"),
    readBuild("vega-lite", "vega-lite.min.js"),
    readBuild("vega-embed", "vega-embed.min.js"),
  ];
  cached = {
    scripts: parts.map((part) => part.text),
    versions: {
      vega: parts[0]?.version ?? "",
      "vega-lite": parts[1]?.version ?? "",
      "vega-embed": parts[2]?.version ?? "",
    },
  };
  return cached;
}
