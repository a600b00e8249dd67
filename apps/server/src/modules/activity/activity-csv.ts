import type { ActivityArea, ActivityEntry } from '@panel247/contract/activity';
import { stringify } from 'csv-stringify/sync';

const COLUMNS = ['time', 'user', 'ip', 'via', 'resource', 'area', 'action', 'target', 'changes'];

function changesText(entry: ActivityEntry): string {
  return entry.changes.map((c) => `${c.field}: ${c.before ?? '—'} → ${c.after ?? '—'}`).join('; ');
}

/**
 * The log as CSV (RFC 4180, through csv-stringify). A cell that starts like a formula is escaped,
 * since the names and values in it were typed by users and the file is opened in spreadsheets.
 */
export function toActivityCsv(entries: ActivityEntry[], areaName: (area: ActivityArea) => string): string {
  const rows = entries.map((entry) => [
    new Date(entry.at * 1000).toISOString(),
    entry.user,
    entry.ip,
    entry.via,
    entry.resource?.reference ?? '',
    areaName(entry.area),
    entry.action,
    entry.target,
    changesText(entry),
  ]);
  return stringify([COLUMNS, ...rows], { escape_formulas: true, record_delimiter: 'windows' });
}
