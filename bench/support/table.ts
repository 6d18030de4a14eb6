/** Plain-text and Markdown tables for benchmark output. */
export type Align = 'left' | 'right';

export interface Column {
  readonly title: string;
  readonly align?: Align;
}

export function textTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
): string {
  const widths = columns.map((column, i) =>
    Math.max(column.title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        return columns[i]?.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [
    line(columns.map((c) => c.title)),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ].join('\n');
}

export function markdownTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
): string {
  const cellText = (cell: string) => cell.replaceAll('|', '\\|');
  const rule = columns.map((c) => (c.align === 'right' ? '---:' : ':---'));
  return [
    `| ${columns.map((c) => cellText(c.title)).join(' | ')} |`,
    `| ${rule.join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cellText).join(' | ')} |`),
  ].join('\n');
}
