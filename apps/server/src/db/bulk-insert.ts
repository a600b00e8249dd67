/**
 * Rows per multi-row INSERT for bulk loads (the scale data set): 500 rows of up to 24 columns
 * stay far below SQLite's and PostgreSQL's bound-parameter limits.
 */
export const BULK_INSERT_ROWS = 500;

/** Hands `rows` to `insert` a chunk at a time, in order (the caller owns the transaction). */
export async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += BULK_INSERT_ROWS) {
    await insert(rows.slice(start, start + BULK_INSERT_ROWS));
  }
}

/** `user00001`, `user00002`, …: numbered names of a bulk set, as wide as its largest number (at least 5 digits). */
export function numbered(prefix: string, i: number, largest: number): string {
  return `${prefix}${String(i).padStart(Math.max(5, String(largest).length), '0')}`;
}
