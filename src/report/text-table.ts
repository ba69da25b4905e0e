// Plain-text tables for the terminal: columns padded to their widest cell, first column left-aligned, the rest
// right-aligned, a rule under the header. No colours, so output pastes cleanly into issues and READMEs.

export function renderTextTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("   ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("   ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}
