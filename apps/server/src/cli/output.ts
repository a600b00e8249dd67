/** Plain-text rendering for people; --json bypasses all of this. */

export type Cell = string | number | boolean | null | undefined;

function cell(value: Cell): string {
  if (value === null || value === undefined || value === '') return '-';
  return String(value);
}

/** A left-aligned table with a header row; "(none)" when there are no rows. */
export function table(headers: string[], rows: Cell[][]): string {
  if (rows.length === 0) return '(none)';
  const texts = rows.map((row) => row.map(cell));
  const widths = headers.map((header, i) => Math.max(header.length, ...texts.map((row) => (row[i] ?? '').length)));
  const render = (row: string[]) =>
    row
      .map((value, i) => (i === row.length - 1 ? value : value.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [render(headers), ...texts.map(render)].join('\n');
}

/** Epoch seconds → `2030-12-31 23:59` (UTC), or null. */
export function timestamp(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined) return null;
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
}

/** Epoch seconds → `2030-12-31`, or null. */
export function day(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined) return null;
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}
